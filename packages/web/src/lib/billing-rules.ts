import { COUNTED_CREDIT_STATUSES, CREDIT_PLAN_CODES, FREE_PLAN_CODE, tierOf, type CreditBundleStatus } from '@flotilla/model';

/** The billing rules the credits page and the billing banners share (pure; lib/billing.ts has the queries). */

/** Spec 3 §4: credits only on pilot-v2, production-v2 and enterprise-v2. */
export function planSupportsCredits(code: string): boolean {
  return (CREDIT_PLAN_CODES as readonly string[]).includes(code);
}

/** Whether the plan is the free tier (a -vN suffix allowed). */
export const isFreePlan = (code: string) => tierOf(code) === FREE_PLAN_CODE;

/**
 * Spec 3 §4: the balance sums only paid, complimentary and manually invoiced bundles, each
 * by what is still usable of it (`available_balance`) until it expires, as the server's
 * low-credit notification counts it.
 */
export function countedCreditBalance(bundles: readonly { payment_status: string; available_balance: number; expires_on__date: string }[], now: Date): number {
  return bundles
    .filter((b) => (COUNTED_CREDIT_STATUSES as readonly string[]).includes(b.payment_status as CreditBundleStatus))
    .filter((b) => new Date(b.expires_on__date).getTime() > now.getTime())
    .reduce((sum, b) => sum + b.available_balance, 0);
}
