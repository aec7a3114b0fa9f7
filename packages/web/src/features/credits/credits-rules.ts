import { CONTACT_SALES_CENTS, CREDIT_PURCHASE_MAX } from '@flotilla/model';

/**
 * Spec 3 §5 credits to purchase: every non-digit is stripped and the number is capped at
 * CREDIT_PURCHASE_MAX; nothing left is 0.
 */
export function parseCreditQuantity(input: string): number {
  const digits = input.replace(/\D/g, '');
  if (digits === '') return 0;
  // Longer than the cap's digits: capped without building a number past Number's precision.
  if (digits.length > String(CREDIT_PURCHASE_MAX).length) return CREDIT_PURCHASE_MAX;
  return Math.min(Number(digits), CREDIT_PURCHASE_MAX);
}

/** Spec 3 §4: at or over the contact-sales price the purchase becomes 'Contact sales'. */
export const isContactSalesTotal = (totalCents: number) => totalCents >= CONTACT_SALES_CENTS;

export type CreditsSummaryAction = 'add-credits' | 'add-payment-method' | 'upgrade-plan';

/**
 * Spec 3 §2 summary card: one of add credits, add payment method or upgrade plan. Credits
 * only on the credit plans; buying needs a payment method (the manual provider's
 * bank-transfer/purchase-order setup counts as one).
 */
export function creditsSummaryAction(input: { supportsCredits: boolean; hasPaymentMethod: boolean }): CreditsSummaryAction {
  if (!input.supportsCredits) return 'upgrade-plan';
  return input.hasPaymentMethod ? 'add-credits' : 'add-payment-method';
}

/** Spec 3 §5 threshold: a whole number from 0 to the max. */
export const CREDIT_THRESHOLD_MAX = CREDIT_PURCHASE_MAX;
export function parseThreshold(input: string): number | null {
  if (!/^\d+$/.test(input.trim())) return null;
  const value = Number(input.trim());
  return value <= CREDIT_THRESHOLD_MAX ? value : null;
}

/** The runway inputs: digits only, capped at their max (spec 3 §5). */
export function parseBoundedCount(input: string, max: number): number {
  const digits = input.replace(/\D/g, '');
  if (digits === '') return 0;
  if (digits.length > String(max).length) return max;
  return Math.min(Number(digits), max);
}
