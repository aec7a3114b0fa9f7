import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { STRIPE_JS_SOURCE } from './stripe-js-stand-in.js';

/**
 * A local stand-in for the few Stripe API endpoints the Stripe adapter calls
 * (features/billing/payments/stripe.ts): customers, setup intents, payment methods, payment
 * intents and refunds, form-encoded with a bearer secret key, answering in Stripe's JSON
 * shapes. It records every request. `completeSetup` plays the browser's part (Stripe.js
 * confirming a setup intent with a card); a payment method made with `decline: true` is a card
 * the bank declines off session; a bank account's charge stays `processing` until `settle`.
 *
 * For a real browser it also serves a Stripe.js stand-in at `/v3/` (stripe-js-stand-in.ts; point
 * FLOTILLA_STRIPE_JS_URL at `jsUrl`) whose `confirmSetup` calls
 * `POST /v1/setup_intents/{id}/confirm` here with the publishable key, CORS allowed as Stripe's
 * API does. Its test cards are Stripe's: see TEST_CARDS.
 *
 * Webhooks: `event(type, object)` makes a Stripe event and `sendEvent(url, secret, event)`
 * delivers it signed (`Stripe-Signature`) as Stripe does.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
}

type Json = Record<string, unknown>;
const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/** Stripe's test card numbers the stand-in knows (anything else: "Your card number is incorrect."). */
export const TEST_CARDS = {
  /** Visa: set up and charged. */
  visa: '4242424242424242',
  /** MasterCard: set up and charged. */
  mastercard: '5555555555554444',
  /** Declined when it is set up ("Your card was declined."). */
  declined: '4000000000000002',
  /** Set up fine, declined when it is charged. */
  declinedAtCharge: '4000000000000341',
} as const;
const CARD_OF_NUMBER: Record<string, { brand: string; decline: 'setup' | 'charge' | null }> = {
  [TEST_CARDS.visa]: { brand: 'visa', decline: null },
  [TEST_CARDS.mastercard]: { brand: 'mastercard', decline: null },
  [TEST_CARDS.declined]: { brand: 'visa', decline: 'setup' },
  [TEST_CARDS.declinedAtCharge]: { brand: 'visa', decline: 'charge' },
};

export interface StripeEventBody {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: Json };
}

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly setupIntents = new Map<string, Json>();
  readonly paymentMethods = new Map<string, Json & { decline?: boolean }>();
  readonly paymentIntents = new Map<string, Json>();
  readonly refunds: Json[] = [];
  private readonly server: Server;
  url = '';

  constructor(
    readonly secretKey = 'sk_test_standin',
    readonly publishableKey = 'pk_test_standin',
  ) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** Where the Stripe.js stand-in is served (FLOTILLA_STRIPE_JS_URL). */
  get jsUrl(): string {
    return `${this.url}/v3/`;
  }

  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The browser confirming setup intent `setupIntentId` with a card (Stripe.js `confirmSetup`). */
  completeSetup(
    setupIntentId: string,
    card: { brand?: string; last4?: string; decline?: boolean; type?: 'card' | 'us_bank_account'; billingDetails?: Json } = {},
  ): string {
    const intent = this.setupIntents.get(setupIntentId);
    if (!intent) throw new Error(`no setup intent ${setupIntentId}`);
    const pm = id('pm');
    const type = card.type ?? 'card';
    this.paymentMethods.set(pm, {
      id: pm,
      object: 'payment_method',
      type,
      customer: intent.customer,
      decline: card.decline ?? false,
      billing_details: card.billingDetails ?? {
        name: 'Ada Lovelace',
        phone: '+1 555 0100',
        address: { line1: '1 Analytical Way', line2: null, city: 'London', state: null, postal_code: 'N1 1AA', country: 'GB' },
      },
      ...(type === 'card'
        ? { card: { brand: card.brand ?? 'visa', last4: card.last4 ?? '4242', exp_month: 12, exp_year: 2030 } }
        : { us_bank_account: { last4: card.last4 ?? '6789', routing_number: '110000000', bank_name: 'STRIPE TEST BANK' } }),
    });
    intent.status = 'succeeded';
    intent.payment_method = pm;
    return pm;
  }

  /** A bank debit's outcome arriving: the payment intent succeeds or fails; answers its webhook event. */
  settle(paymentIntentId: string, outcome: 'succeeded' | 'failed', message = 'The customer\'s bank account could not be debited.'): StripeEventBody {
    const pi = this.paymentIntents.get(paymentIntentId);
    if (!pi) throw new Error(`no payment intent ${paymentIntentId}`);
    pi.status = outcome === 'succeeded' ? 'succeeded' : 'requires_payment_method';
    if (outcome === 'failed') pi.last_payment_error = { type: 'card_error', code: 'payment_intent_payment_attempt_failed', message };
    return this.event(outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', { ...pi });
  }

  /** `charge.refunded` for a payment intent's charge (fully refunded unless `amountRefunded` is less). */
  refundedEvent(paymentIntentId: string, amountRefunded?: number): StripeEventBody {
    const pi = this.paymentIntents.get(paymentIntentId);
    if (!pi) throw new Error(`no payment intent ${paymentIntentId}`);
    const amount = Number(pi.amount);
    const refunded = amountRefunded ?? amount;
    return this.event('charge.refunded', {
      id: id('ch'),
      object: 'charge',
      payment_intent: paymentIntentId,
      amount,
      amount_refunded: refunded,
      refunded: refunded >= amount,
      metadata: pi.metadata ?? {},
    });
  }

  /** A Stripe event carrying `object`. */
  event(type: string, object: Json): StripeEventBody {
    return { id: id('evt'), object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } };
  }

  /** The `Stripe-Signature` Stripe sends with `payload` at `timestamp` (seconds). */
  static signature(secret: string, payload: string, timestamp = Math.floor(Date.now() / 1000)): string {
    return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
  }

  /**
   * Delivers `event` to a webhook endpoint as Stripe does (JSON, signed with `secret`);
   * `signature` replaces the header (null: none), `timestamp` signs as of another time.
   */
  async sendEvent(url: string, secret: string, event: StripeEventBody | Json, opts: { timestamp?: number; signature?: string | null; body?: string } = {}): Promise<{ status: number; body: unknown }> {
    const payload = opts.body ?? JSON.stringify(event);
    const signature = opts.signature === undefined ? StripeStandIn.signature(secret, payload, opts.timestamp) : opts.signature;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', ...(signature === null ? {} : { 'stripe-signature': signature }) },
      body: payload,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body };
  }

  /** The requests to `path` (a prefix), in order. */
  to(method: string, pathPrefix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    // Stripe's API answers browsers (Stripe.js) from any origin.
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, status: number, type: string, message: string, code?: string): void {
    this.send(res, status, { error: { type, message, ...(code ? { code } : {}) } });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const raw = req.method === 'GET' ? url.searchParams : new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const form = Object.fromEntries(raw.entries());
    const idempotency = req.headers['idempotency-key'];
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && (url.pathname === '/v3/' || url.pathname === '/v3')) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'access-control-allow-origin': '*' });
      res.end(STRIPE_JS_SOURCE);
      return;
    }
    this.requests.push({ method: req.method ?? '', path: url.pathname, form, idempotencyKey: typeof idempotency === 'string' ? idempotency : undefined });
    const parts = url.pathname.split('/').filter(Boolean); // ['v1', 'customers', …]
    const [, kind, objectId, action] = parts;
    const missing = () => this.error(res, 404, 'invalid_request_error', `No such ${kind}: '${objectId}'`, 'resource_missing');
    // The browser's call (Stripe.js with the publishable key and the intent's client secret).
    if (kind === 'setup_intents' && objectId && action === 'confirm' && req.method === 'POST') {
      if (req.headers.authorization !== `Bearer ${this.publishableKey}`) return this.error(res, 401, 'invalid_request_error', 'Invalid API Key provided');
      const si = this.setupIntents.get(objectId);
      if (!si || si.client_secret !== form.client_secret) return missing();
      const number = (form['payment_method_data[card][number]'] ?? '').replace(/\D/g, '');
      const card = CARD_OF_NUMBER[number];
      if (!card) return this.error(res, 402, 'card_error', 'Your card number is incorrect.', 'incorrect_number');
      if (card.decline === 'setup') {
        si.status = 'requires_payment_method';
        si.last_setup_error = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
        return this.error(res, 402, 'card_error', 'Your card was declined.', 'card_declined');
      }
      const f = (k: string) => form[`payment_method_data[billing_details]${k}`] || null;
      this.completeSetup(objectId, {
        brand: card.brand,
        last4: number.slice(-4),
        decline: card.decline === 'charge',
        billingDetails: {
          name: f('[name]'),
          phone: f('[phone]'),
          address: { line1: f('[address][line1]'), line2: null, city: f('[address][city]'), state: null, postal_code: f('[address][postal_code]'), country: f('[address][country]') },
        },
      });
      return this.send(res, 200, si);
    }
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) return this.error(res, 401, 'invalid_request_error', 'Invalid API Key provided');

    if (kind === 'customers' && objectId === 'search' && req.method === 'GET') {
      const m = /metadata\['organization_id'\]:'(\d+)'/.exec(form.query ?? '');
      const data = [...this.customers.values()].filter((c) => m && (c.metadata as Json).organization_id === m[1]);
      return this.send(res, 200, { object: 'search_result', data });
    }
    if (kind === 'customers' && !objectId && req.method === 'POST') {
      const c = { id: id('cus'), object: 'customer', email: form.email ?? null, name: form.name ?? null, metadata: { organization_id: form['metadata[organization_id]'] } };
      this.customers.set(c.id, c);
      return this.send(res, 200, c);
    }
    if (kind === 'customers' && objectId && req.method === 'POST') {
      const c = this.customers.get(objectId);
      if (!c) return missing();
      c.invoice_settings = { default_payment_method: form['invoice_settings[default_payment_method]'] ?? null };
      return this.send(res, 200, c);
    }
    if (kind === 'setup_intents' && !objectId && req.method === 'POST') {
      if (!form.customer || !this.customers.has(form.customer)) return this.error(res, 400, 'invalid_request_error', 'No such customer');
      const si = { id: id('seti'), object: 'setup_intent', customer: form.customer, usage: form.usage, status: 'requires_payment_method', payment_method: null } as Json;
      si.client_secret = `${String(si.id)}_secret_${randomBytes(6).toString('hex')}`;
      this.setupIntents.set(String(si.id), si);
      return this.send(res, 200, si);
    }
    if (kind === 'setup_intents' && objectId && req.method === 'GET') {
      const si = this.setupIntents.get(objectId);
      return si ? this.send(res, 200, si) : missing();
    }
    if (kind === 'payment_methods' && objectId && !action && req.method === 'GET') {
      const pm = this.paymentMethods.get(objectId);
      if (!pm) return missing();
      const { decline: _decline, ...shown } = pm;
      return this.send(res, 200, shown);
    }
    if (kind === 'payment_methods' && objectId && action === 'detach' && req.method === 'POST') {
      const pm = this.paymentMethods.get(objectId);
      if (!pm) return missing();
      pm.customer = null;
      return this.send(res, 200, pm);
    }
    if (kind === 'payment_intents' && !objectId && req.method === 'POST') {
      const pm = this.paymentMethods.get(form.payment_method ?? '');
      if (!pm || pm.customer !== form.customer) return this.error(res, 400, 'invalid_request_error', 'No such PaymentMethod', 'resource_missing');
      if (pm.decline) return this.error(res, 402, 'card_error', 'Your card was declined.', 'card_declined');
      // A bank debit takes days: it stays processing until `settle` (then a webhook says how it ended).
      const pi: Json & { id: string } = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(form.amount),
        currency: form.currency,
        customer: form.customer,
        payment_method: pm.id,
        status: pm.type === 'us_bank_account' ? 'processing' : 'succeeded',
        metadata: { organization_id: form['metadata[organization_id]'], invoice_number: form['metadata[invoice_number]'] },
      };
      this.paymentIntents.set(pi.id, pi);
      return this.send(res, 200, pi);
    }
    if (kind === 'refunds' && req.method === 'POST') {
      if (!this.paymentIntents.has(form.payment_intent ?? '')) return missing();
      const r = { id: id('re'), object: 'refund', payment_intent: form.payment_intent, amount: Number(form.amount), status: 'succeeded' };
      this.refunds.push(r);
      return this.send(res, 200, r);
    }
    return this.error(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method} ${url.pathname})`);
  }
}
