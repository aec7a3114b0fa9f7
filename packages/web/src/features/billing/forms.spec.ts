import { describe, expect, it } from 'vitest';
import { readAccountForm } from './account-form';
import { emptyAddress, manualBillingInfoBody, missingAddressFields } from './payment-form';
import { addressLines, cardBrand } from './payment-method-text';

describe('billing account form (spec 3 §5)', () => {
  it('requires an email and a valid one', () => {
    expect(readAccountForm('  ', '')).toEqual({ ok: false, error: 'required' });
    expect(readAccountForm('not-an-email', '')).toEqual({ ok: false, error: 'invalid', field: 'email', message: 'Please enter a valid email address' });
  });
  it('reads cc emails as a list and refuses an invalid one', () => {
    expect(readAccountForm('a@example.com', 'b@example.com, c@example.com')).toEqual({
      ok: true,
      body: { email: 'a@example.com', cc_emails: ['b@example.com', 'c@example.com'] },
    });
    expect(readAccountForm('a@example.com', 'b@example.com, nope')).toMatchObject({ ok: false, error: 'invalid', field: 'cc' });
    expect(readAccountForm('a@example.com', 'b@example.com, B@example.com')).toEqual({ ok: false, error: 'invalid', field: 'cc', message: 'Each cc recipient may be listed once' });
  });
});

describe('payment form (spec 3 §5)', () => {
  it('requires the address, both names and the phone', () => {
    expect(missingAddressFields(emptyAddress())).toEqual(['first_name', 'last_name', 'address1', 'city', 'zip', 'country', 'phone']);
  });
  it("sends the manual provider's token with the address and the full name", () => {
    const values = { ...emptyAddress(), first_name: 'Ada', last_name: 'Lovelace', address1: '1 Road', city: 'London', zip: 'N1', country: 'GB', phone: '+44 1' };
    expect(manualBillingInfoBody(values)).toEqual({
      token_type: 'manual',
      token_id: 'manual',
      full_name: 'Ada Lovelace',
      address1: '1 Road',
      city: 'London',
      zip: 'N1',
      country: 'GB',
      phone: '+44 1',
    });
  });
});

describe('payment method display', () => {
  it('names the known card brands only (spec 3 §9)', () => {
    expect(cardBrand('visa')).toBe('Visa');
    expect(cardBrand('MasterCard')).toBe('MasterCard');
    expect(cardBrand('amex')).toBe('American Express');
    expect(cardBrand('jcb')).toBeNull();
  });
  it('prints the address lines that are filled', () => {
    expect(addressLines({ full_name: 'Ada Lovelace', address1: '1 Road', city: 'London', zip: 'N1', country: 'GB', address2: '' })).toEqual([
      'Ada Lovelace',
      '1 Road',
      'N1 London',
      'GB',
    ]);
  });
});
