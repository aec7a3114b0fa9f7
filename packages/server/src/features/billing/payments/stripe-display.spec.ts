import { describe, expect, it } from 'vitest';
import { displayOfPaymentMethod } from './stripe.js';

const address = { line1: '1 Main St', line2: 'Suite 2', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const billing_details = { name: 'Grace Hopper', phone: '+1 555 0199', address };

describe('the payment method display (spec 3 §3 billing info) from a Stripe payment method', () => {
  it('a card: brand, last four, expiry and the billing address', () => {
    expect(displayOfPaymentMethod({ type: 'card', billing_details, card: { brand: 'amex', last4: '0005', exp_month: 3, exp_year: 2031 } })).toEqual({
      type: 'card',
      card_type: 'amex',
      last_four: '0005',
      month: 3,
      year: 2031,
      full_name: 'Grace Hopper',
      phone: '+1 555 0199',
      address1: '1 Main St',
      address2: 'Suite 2',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      country: 'US',
    });
  });

  it('a US bank account: last four and routing number; SEPA: last four', () => {
    expect(displayOfPaymentMethod({ type: 'us_bank_account', billing_details, us_bank_account: { last4: '6789', routing_number: '110000000' } })).toMatchObject({
      type: 'us_bank_account',
      last_four: '6789',
      routing_number: '110000000',
    });
    expect(displayOfPaymentMethod({ type: 'sepa_debit', billing_details, sepa_debit: { last4: '3000' } })).toMatchObject({ type: 'sepa_debit', last_four: '3000' });
  });

  it.each(['paypal', 'cashapp', 'link'] as const)('%s: its type and the address', (type) => {
    const shown = displayOfPaymentMethod({ type, billing_details });
    expect(shown).toMatchObject({ type, city: 'Austin' });
    expect(shown.last_four).toBeUndefined();
  });

  it('missing details are null, never undefined strings', () => {
    expect(displayOfPaymentMethod({ type: 'card', card: {} })).toMatchObject({ type: 'card', card_type: null, last_four: null, month: null, city: null });
  });
});
