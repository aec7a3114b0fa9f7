import { CREDIT_MESSAGES } from './payments.js';
import { CREDIT_PURCHASE_MAX } from './rules.js';

/**
 * Issue 18 (admin credits): what a platform administrator grants and refunds. The server
 * enforces these rules and the dashboard's /admin "Credits and refunds" section mirrors them
 * (docs/billing.md "Complimentary credits and refunds").
 */

/** The longest reason kept with a grant or a refund. */
export const ADMIN_REASON_MAX = 500;

export const ADMIN_CREDIT_MESSAGES = {
  /** The same bound as a purchase (CREDIT_PURCHASE_MAX). */
  quantity: CREDIT_MESSAGES.quantity,
  reasonRequired: 'Give a reason: it is kept in the log of grants and refunds',
  reasonTooLong: `The reason must be at most ${ADMIN_REASON_MAX} characters`,
  planWithoutCredits: (plan: string) => `This organization’s plan (${plan}) does not include credits: credits can be granted once it is on a plan that does`,
  notPaid: 'Only a paid purchase can be refunded',
  invoiceNotPaid: (state: string) => `Only a paid invoice can be refunded: this one is ${state.replace('_', ' ')}`,
  complimentary: 'Complimentary credits were not paid for: there is nothing to refund',
  alreadyRefunded: 'This has already been refunded',
  creditsSpent: (spent: number, of: number) =>
    `${spent.toLocaleString('en-US')} of these ${of.toLocaleString('en-US')} credits have already been used: only a purchase whose credits are all unspent can be refunded`,
  nothingToRefund: 'This invoice is for $0.00: there is nothing to refund',
  bundleNotFound: 'Credit bundle not found',
} as const;

/** What is wrong with a reason for a grant or a refund (undefined: nothing). */
export function adminReasonProblem(reason: unknown): string | undefined {
  if (typeof reason !== 'string' || reason.trim() === '') return ADMIN_CREDIT_MESSAGES.reasonRequired;
  if (reason.trim().length > ADMIN_REASON_MAX) return ADMIN_CREDIT_MESSAGES.reasonTooLong;
  return undefined;
}

/** What is wrong with the quantity of a grant: a whole number bounded as a purchase is (undefined: nothing). */
export function creditGrantQuantityProblem(q: unknown): string | undefined {
  if (typeof q !== 'number' || !Number.isInteger(q) || q < 1 || q > CREDIT_PURCHASE_MAX) return ADMIN_CREDIT_MESSAGES.quantity;
  return undefined;
}

/** What is wrong with a grant of complimentary credits (undefined: nothing): its quantity, then its reason. */
export function creditGrantProblem(input: { quantity: unknown; reason: unknown }): string | undefined {
  return creditGrantQuantityProblem(input.quantity) ?? adminReasonProblem(input.reason);
}

/** One line of the log of grants and refunds, as `/admin/v1/billing/credit-adjustments` answers it. */
export interface CreditAdjustment {
  id: number;
  created_at: string;
  kind: 'grant' | 'refund';
  /** The name as it was (kept when the organization is deleted: then id and handle are null). */
  organization: { id: number | null; name: string; handle: string | null };
  /** The username as it was (id null once the user is deleted). */
  administrator: { id: number | null; username: string };
  credit_bundle: number | null;
  invoice_number: string | null;
  quantity: number | null;
  amount_cents: number;
  /** A refund's way back: through the provider that took the money (`stripe`), or outside it (`manual`). */
  refunded_through: 'manual' | 'stripe' | null;
  reason: string;
}

/** A credit bundle as the refund rule sees it (its linked invoice's state, when it has one). */
export interface RefundableBundle {
  payment_status: string;
  original_quantity: number;
  available_balance: number;
  invoice_state: string | null;
}

/**
 * Why an invoice cannot be refunded (undefined: it can). Full refunds only: a paid invoice
 * with something to give back.
 */
export function invoiceRefundProblem(invoice: { state: string; total_in_cents: number }): string | undefined {
  if (invoice.state === 'refunded') return ADMIN_CREDIT_MESSAGES.alreadyRefunded;
  if (invoice.state !== 'paid') return ADMIN_CREDIT_MESSAGES.invoiceNotPaid(invoice.state);
  if (invoice.total_in_cents <= 0) return ADMIN_CREDIT_MESSAGES.nothingToRefund;
  return undefined;
}

/**
 * Why a credit bundle cannot be refunded (undefined: it can): complimentary and unpaid bundles
 * have nothing to refund, and a bundle some of whose credits were spent is refused (full
 * refunds only; docs/decisions.md).
 */
export function bundleRefundProblem(bundle: RefundableBundle): string | undefined {
  if (bundle.payment_status === 'refunded') return ADMIN_CREDIT_MESSAGES.alreadyRefunded;
  if (bundle.payment_status === 'complimentary') return ADMIN_CREDIT_MESSAGES.complimentary;
  if (bundle.invoice_state === null || !['paid', 'manually invoiced'].includes(bundle.payment_status)) return ADMIN_CREDIT_MESSAGES.notPaid;
  if (bundle.invoice_state === 'refunded') return ADMIN_CREDIT_MESSAGES.alreadyRefunded;
  if (bundle.invoice_state !== 'paid') return ADMIN_CREDIT_MESSAGES.invoiceNotPaid(bundle.invoice_state);
  const spent = bundle.original_quantity - bundle.available_balance;
  if (spent > 0) return ADMIN_CREDIT_MESSAGES.creditsSpent(spent, bundle.original_quantity);
  return undefined;
}
