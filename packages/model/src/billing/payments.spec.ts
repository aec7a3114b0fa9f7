import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, CREDIT_MESSAGES, billingAccountProblem, creditPurchaseProblem } from './payments.js';
import { CREDIT_PURCHASE_MAX } from './rules.js';

describe('billing account rule (spec 3 §5)', () => {
  it('needs a valid email, at most 10 valid distinct cc emails', () => {
    expect(billingAccountProblem({ email: 'a@example.com', cc_emails: ['b@example.com'] })).toBeUndefined();
    expect(billingAccountProblem({ email: '' })).toBe(BILLING_MESSAGES.invalidEmail);
    expect(billingAccountProblem({ email: 'a@b' })).toBe(BILLING_MESSAGES.invalidEmail);
    expect(billingAccountProblem({ email: 'a@example.com', cc_emails: ['x'] })).toBe(BILLING_MESSAGES.invalidCcEmail('x'));
    expect(billingAccountProblem({ email: 'a@example.com', cc_emails: Array.from({ length: 11 }, (_, i) => `c${i}@example.com`) })).toBe(BILLING_MESSAGES.tooManyCcEmails);
    expect(billingAccountProblem({ email: 'a@example.com', cc_emails: ['c@example.com', 'C@example.com'] })).toBe(BILLING_MESSAGES.duplicateCcEmail);
  });
});

describe('credit purchase rule (spec 3 §4/§5)', () => {
  it('takes whole numbers from 1 to the cap, below the contact-sales total', () => {
    expect(creditPurchaseProblem(1, 400)).toBeUndefined();
    for (const q of [0, -1, 1.5, CREDIT_PURCHASE_MAX + 1, '3', Number.NaN]) expect(creditPurchaseProblem(q, 400)).toBe(CREDIT_MESSAGES.quantity);
    expect(creditPurchaseProblem(249_999, 400)).toBeUndefined();
    expect(creditPurchaseProblem(250_000, 400)).toBe(CREDIT_MESSAGES.contactSales);
  });
});
