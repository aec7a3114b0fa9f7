import type { BillingCycle } from './billing.resource.js';
import { FREE_PLAN_CODE } from '../identity/account-deletion.js';
import type { CataloguePlan } from './catalogue.js';

/** Spec 3 §4: what choosing a plan means, given the current one. */
export type PlanChangeOutcome = 'current' | 'contact-sales' | 'cycle-change' | 'upgrade' | 'downgrade';

/**
 * Spec 3 §4 plan change outcome: same tier and cycle → current; either tier not self-serve →
 * contact sales; same tier, other cycle → cycle change; otherwise by position in the list of
 * self-serve tiers plus the enterprise tier. `order` is that list's codes, in order.
 */
export function planChangeOutcome(
  current: { code: string; cycle: BillingCycle; selfServe: boolean },
  target: { code: string; cycle: BillingCycle; selfServe: boolean },
  order: readonly string[],
): PlanChangeOutcome {
  if (current.code === target.code && current.cycle === target.cycle) return 'current';
  if (!current.selfServe || !target.selfServe) return 'contact-sales';
  if (current.code === target.code) return 'cycle-change';
  const from = order.indexOf(current.code);
  const to = order.indexOf(target.code);
  return to > from ? 'upgrade' : 'downgrade';
}

/** Cancelling a subscription is changing to the free tier, monthly (spec 3 §4). */
export const CANCEL_TARGET = { code: FREE_PLAN_CODE, cycle: 'monthly' as BillingCycle };

/** Spec 3 §4 confirm button label: 'Pay now' when the target costs something, else 'Confirm'; 'Next' before NACHA terms; 'Contact sales' when the free plan is blocked. */
export function planChangeConfirmLabel(target: Pick<CataloguePlan, 'monthlyPrice'>, opts: { termsNeeded: boolean; freeBlocked: boolean }): 'Pay now' | 'Confirm' | 'Next' | 'Contact sales' {
  if (opts.freeBlocked) return 'Contact sales';
  if (opts.termsNeeded) return 'Next';
  return target.monthlyPrice > 0 ? 'Pay now' : 'Confirm';
}

/** Spec 3 §4 invoice states and how they are shown. */
export const INVOICE_STATES = ['draft', 'open', 'pending', 'processing', 'paid', 'past_due', 'failed', 'voided', 'void', 'closed', 'refunded'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export type InvoiceTone = 'done' | 'waiting' | 'danger';
export function invoiceTone(state: string): InvoiceTone {
  if (['paid', 'voided', 'void', 'closed', 'refunded'].includes(state)) return 'done';
  if (['pending', 'open', 'processing', 'draft'].includes(state)) return 'waiting';
  return 'danger';
}
/** A draft invoice cannot be downloaded (spec 3 §4). */
export const canDownloadInvoice = (state: string) => state !== 'draft';

/** Spec 3 §4/§9 past-due timeline. */
export const PAST_DUE_ERROR_DAYS = 30;
export const PAST_DUE_FREEZE_DAYS = 60;
export type PastDueStage = 'none' | 'warning' | 'error' | 'frozen';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Whole days since `since` (UTC), the stage, and the days left before freezing. */
export function pastDueStage(since: Date | string | null | undefined, now: Date): { stage: PastDueStage; days: number; daysUntilFrozen: number } {
  if (since === null || since === undefined) return { stage: 'none', days: 0, daysUntilFrozen: PAST_DUE_FREEZE_DAYS };
  const days = Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / DAY_MS));
  const stage: PastDueStage = days >= PAST_DUE_FREEZE_DAYS ? 'frozen' : days >= PAST_DUE_ERROR_DAYS ? 'error' : 'warning';
  return { stage, days, daysUntilFrozen: Math.max(0, PAST_DUE_FREEZE_DAYS - days) };
}

/** Spec 3 §4/§9 credits. */
export const CREDIT_PLAN_CODES = ['pilot-v2', 'production-v2', 'enterprise-v2'] as const;
export const CREDIT_PURCHASE_MAX = 100_000_000;
/** At this total price (cents) the purchase becomes 'Contact sales'. */
export const CONTACT_SALES_CENTS = 100_000_000;
export const CREDIT_EXPIRY_YEARS = 10;
export const CREDIT_BUNDLE_STATUSES = ['processing', 'paid', 'failed', 'complimentary', 'cancelled', 'refunded', 'manually invoiced'] as const;
export type CreditBundleStatus = (typeof CREDIT_BUNDLE_STATUSES)[number];
/** The balance counts only these (spec 3 §4). */
export const COUNTED_CREDIT_STATUSES: readonly CreditBundleStatus[] = ['paid', 'complimentary', 'manually invoiced'];
export const DEFAULT_CREDIT_PURCHASE_ERROR = 'Failed to purchase credits';
export const RUNWAY_MAX_DEVICES = 100_000_000;
export const RUNWAY_MAX_MONTHS = 120;
/** Spec 3 §5: additional credits needed = max(0, ceil((current + estimated − included) × months / 2) − balance). */
export function creditsNeeded(input: { currentDevices: number; estimatedDevices: number; includedDevices: number; months: number; balance: number }): number {
  const { currentDevices, estimatedDevices, includedDevices, months, balance } = input;
  return Math.max(0, Math.ceil(((currentDevices + estimatedDevices - includedDevices) * months) / 2) - balance);
}
/**
 * One credit covers this many device-months beyond the plan (the runway formula's `/ 2`,
 * spec 3 §5): covering `devices` for a period of `months` takes ceil(devices × months / 2).
 */
export const DEVICE_MONTHS_PER_CREDIT = 2;
export const creditsToCover = (devices: number, months: number) => Math.ceil((devices * months) / DEVICE_MONTHS_PER_CREDIT);
/** Devices that `credits` cover for a period of `months`. */
export const devicesCoveredBy = (credits: number, months: number) => Math.floor((credits * DEVICE_MONTHS_PER_CREDIT) / months);

/** Default notification threshold: twice the device count (spec 3 §5). */
export const defaultCreditThreshold = (deviceCount: number) => 2 * deviceCount;
