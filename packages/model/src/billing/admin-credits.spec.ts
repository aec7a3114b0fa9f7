import { describe, expect, it } from 'vitest';
import { ADMIN_CREDIT_MESSAGES, ADMIN_REASON_MAX, adminReasonProblem, bundleRefundProblem, creditGrantProblem, invoiceRefundProblem } from './admin-credits.js';
import { CREDIT_MESSAGES } from './payments.js';
import { CREDIT_PURCHASE_MAX } from './rules.js';

describe('complimentary credit grant (issue 18, admin credits)', () => {
  it('takes a whole quantity from 1 to the purchase cap with a reason', () => {
    expect(creditGrantProblem({ quantity: 1, reason: 'Onboarding' })).toBeUndefined();
    expect(creditGrantProblem({ quantity: CREDIT_PURCHASE_MAX, reason: 'x'.repeat(ADMIN_REASON_MAX) })).toBeUndefined();
  });

  it.each([0, -1, 1.5, CREDIT_PURCHASE_MAX + 1, '10', Number.NaN, null, undefined])('refuses the quantity %s with the purchase message', (quantity) => {
    expect(creditGrantProblem({ quantity, reason: 'ok' })).toBe(CREDIT_MESSAGES.quantity);
    expect(ADMIN_CREDIT_MESSAGES.quantity).toBe(CREDIT_MESSAGES.quantity);
  });

  it.each([undefined, null, '', '   ', 42])('refuses the reason %j as missing', (reason) => {
    expect(creditGrantProblem({ quantity: 5, reason })).toBe(ADMIN_CREDIT_MESSAGES.reasonRequired);
    expect(adminReasonProblem(reason)).toBe(ADMIN_CREDIT_MESSAGES.reasonRequired);
  });

  it('refuses a reason over the maximum once trimmed', () => {
    expect(adminReasonProblem('x'.repeat(ADMIN_REASON_MAX + 1))).toBe(ADMIN_CREDIT_MESSAGES.reasonTooLong);
    expect(adminReasonProblem(`  ${'x'.repeat(ADMIN_REASON_MAX)}  `)).toBeUndefined();
  });
});

describe('refunds (issue 18, admin credits)', () => {
  const paid = { payment_status: 'paid', original_quantity: 10, available_balance: 10, invoice_state: 'paid' };
  it('a paid bundle, or a manually invoiced one whose invoice was marked paid, can be refunded while none of its credits is spent', () => {
    expect(bundleRefundProblem(paid)).toBeUndefined();
    expect(bundleRefundProblem({ ...paid, payment_status: 'manually invoiced' })).toBeUndefined();
  });
  it.each([
    [{ ...paid, payment_status: 'complimentary', invoice_state: null }, ADMIN_CREDIT_MESSAGES.complimentary],
    [{ ...paid, payment_status: 'refunded', invoice_state: 'refunded' }, ADMIN_CREDIT_MESSAGES.alreadyRefunded],
    [{ ...paid, payment_status: 'failed', invoice_state: null }, ADMIN_CREDIT_MESSAGES.notPaid],
    [{ ...paid, payment_status: 'processing' }, ADMIN_CREDIT_MESSAGES.notPaid],
    [{ ...paid, payment_status: 'manually invoiced', invoice_state: 'pending' }, ADMIN_CREDIT_MESSAGES.invoiceNotPaid('pending')],
    [{ ...paid, available_balance: 7 }, ADMIN_CREDIT_MESSAGES.creditsSpent(3, 10)],
  ])('refuses %j', (bundle, message) => expect(bundleRefundProblem(bundle)).toBe(message));

  it('an invoice: paid with a total, once', () => {
    expect(invoiceRefundProblem({ state: 'paid', total_in_cents: 4000 })).toBeUndefined();
    expect(invoiceRefundProblem({ state: 'refunded', total_in_cents: 4000 })).toBe(ADMIN_CREDIT_MESSAGES.alreadyRefunded);
    expect(invoiceRefundProblem({ state: 'past_due', total_in_cents: 4000 })).toBe('Only a paid invoice can be refunded: this one is past due');
    expect(invoiceRefundProblem({ state: 'paid', total_in_cents: 0 })).toBe(ADMIN_CREDIT_MESSAGES.nothingToRefund);
  });
});
