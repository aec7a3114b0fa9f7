/**
 * The browser script the Stripe stand-in serves at `/v3/` (test support only, never shipped):
 * exactly the part of Stripe.js the dashboard's card form uses
 * (packages/web/src/features/billing/stripe-js.ts): `Stripe(publishableKey)`,
 * `elements(options)`, `elements.create('payment' | 'address', options)`, `element.mount(el)` /
 * `destroy()`, `elements.submit()` and `confirmSetup({ elements, clientSecret, … })`. The
 * elements are real labelled inputs (no iframe) the test types into; `confirmSetup` confirms
 * the setup intent against the stand-in API (same origin as the script, with the publishable
 * key), which answers as Stripe does for its test cards. DOM calls only (no inline styles or
 * markup), so the dashboard's strict CSP needs nothing but the script's origin.
 */
export const STRIPE_JS_SOURCE = String.raw`(function () {
  'use strict';
  var script = document.currentScript;
  var apiBase = script && script.src ? new URL(script.src).origin : '';

  function field(box, name, label, autocomplete) {
    var wrap = document.createElement('div');
    var id = 'standin-' + name + '-' + Math.random().toString(36).slice(2, 8);
    var l = document.createElement('label');
    l.htmlFor = id;
    l.textContent = label;
    var input = document.createElement('input');
    input.id = id;
    input.name = name;
    input.autocomplete = autocomplete || 'off';
    wrap.appendChild(l);
    wrap.appendChild(input);
    box.appendChild(wrap);
    return input;
  }

  function createElement(type) {
    var inputs = {};
    var root = null;
    return {
      type: type,
      inputs: inputs,
      mount: function (el) {
        root = document.createElement('div');
        root.setAttribute('data-stripe-element', type);
        if (type === 'payment') {
          inputs.number = field(root, 'cardnumber', 'Card number', 'cc-number');
          inputs.expiry = field(root, 'exp-date', 'Expiration date (MM / YY)', 'cc-exp');
          inputs.cvc = field(root, 'cvc', 'Security code', 'cc-csc');
        } else {
          inputs.firstName = field(root, 'firstName', 'First name', 'given-name');
          inputs.lastName = field(root, 'lastName', 'Last name', 'family-name');
          inputs.line1 = field(root, 'addressLine1', 'Address line 1', 'address-line1');
          inputs.city = field(root, 'locality', 'City', 'address-level2');
          inputs.postalCode = field(root, 'postalCode', 'Postal code', 'postal-code');
          inputs.country = field(root, 'country', 'Country', 'country');
          inputs.phone = field(root, 'phone', 'Phone number', 'tel');
        }
        el.appendChild(root);
      },
      destroy: function () {
        if (root && root.parentNode) root.parentNode.removeChild(root);
        root = null;
      },
    };
  }

  function value(el, key) {
    return el && el.inputs[key] ? el.inputs[key].value.trim() : '';
  }

  window.Stripe = function (publishableKey) {
    if (typeof publishableKey !== 'string' || publishableKey.indexOf('pk_') !== 0) throw new Error('Invalid publishable key');
    return {
      elements: function (options) {
        var created = [];
        var elements = {
          options: options,
          create: function (type) {
            if (type !== 'payment' && type !== 'address') throw new Error('The stand-in has no ' + type + ' element');
            var el = createElement(type);
            created.push(el);
            return el;
          },
          submit: function () {
            var payment = created.filter(function (e) { return e.type === 'payment'; })[0];
            var address = created.filter(function (e) { return e.type === 'address'; })[0];
            if (!value(payment, 'number')) return Promise.resolve({ error: { type: 'validation_error', message: 'Your card number is incomplete.' } });
            if (address && (!value(address, 'firstName') || !value(address, 'lastName') || !value(address, 'line1'))) {
              return Promise.resolve({ error: { type: 'validation_error', message: 'Your address is incomplete.' } });
            }
            return Promise.resolve({});
          },
          _created: created,
        };
        return elements;
      },
      confirmSetup: function (opts) {
        var created = opts.elements._created;
        var payment = created.filter(function (e) { return e.type === 'payment'; })[0];
        var address = created.filter(function (e) { return e.type === 'address'; })[0];
        var id = String(opts.clientSecret).split('_secret_')[0];
        var form = new URLSearchParams();
        form.set('client_secret', opts.clientSecret);
        form.set('payment_method_data[type]', 'card');
        form.set('payment_method_data[card][number]', value(payment, 'number').replace(/\s+/g, ''));
        form.set('payment_method_data[billing_details][name]', (value(address, 'firstName') + ' ' + value(address, 'lastName')).trim());
        form.set('payment_method_data[billing_details][phone]', value(address, 'phone'));
        form.set('payment_method_data[billing_details][address][line1]', value(address, 'line1'));
        form.set('payment_method_data[billing_details][address][city]', value(address, 'city'));
        form.set('payment_method_data[billing_details][address][postal_code]', value(address, 'postalCode'));
        form.set('payment_method_data[billing_details][address][country]', value(address, 'country'));
        if (opts.confirmParams && opts.confirmParams.return_url) form.set('return_url', opts.confirmParams.return_url);
        return fetch(apiBase + '/v1/setup_intents/' + encodeURIComponent(id) + '/confirm', {
          method: 'POST',
          headers: { authorization: 'Bearer ' + publishableKey, 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        }).then(function (res) {
          return res.json().then(function (body) {
            if (!res.ok) return { error: body.error || { message: 'An unexpected error occurred.' } };
            return { setupIntent: body };
          });
        }, function () {
          return { error: { type: 'api_connection_error', message: 'An unexpected error occurred.' } };
        });
      },
    };
  };
})();
`;
