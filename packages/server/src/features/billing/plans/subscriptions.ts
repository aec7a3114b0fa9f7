import { FREE_PLAN_CODE, type BillingCycle, type PlanLimits } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';
import {
  insertMissingFreeSubscriptions,
  insertSubscription,
  selectActiveSubscription,
  selectPlanById,
  selectPlanByCode,
  type PlanWithFeatures,
  type SubscriptionRow,
} from './plans.repository.js';

/**
 * Issue 18 item 1: with billing on, every organization has exactly one active subscription.
 * New organizations get one on the free plan (a rule on organization POST); organizations that
 * predate billing get theirs the first time anything asks (this function, which the other
 * billing parts call too). Safe under concurrency: the partial unique index keeps one active row.
 */
export async function ensureSubscription(db: Db, orgId: number, now: Date = new Date()): Promise<SubscriptionRow> {
  const existing = await selectActiveSubscription(db, orgId);
  if (existing) return existing;
  const free = await selectPlanByCode(db, FREE_PLAN_CODE);
  if (!free) throw new Error(`the billing catalogue has no '${FREE_PLAN_CODE}' plan (is billing on and the catalogue seeded?)`);
  const created = await insertSubscription(db, { organization: orgId, plan: free.id, cycle: 'monthly', origin: 'signup', now }, true);
  return created ?? (await selectActiveSubscription(db, orgId))!;
}

/** ensureSubscription for every organization at once (start-up with billing on; the usage ledger job). */
export async function ensureAllSubscriptions(db: Db, now: Date = new Date()): Promise<number> {
  return insertMissingFreeSubscriptions(db, FREE_PLAN_CODE, now);
}

/** The organization's subscription and plan (creating the free subscription when missing). */
export async function currentPlan(db: Db, orgId: number, now?: Date): Promise<{ subscription: SubscriptionRow; plan: PlanWithFeatures }> {
  const subscription = await ensureSubscription(db, orgId, now);
  const plan = await selectPlanById(db, subscription.is_for__plan);
  if (!plan) throw new Error(`subscription ${subscription.id} names a missing plan`);
  return { subscription, plan };
}

/** The model's PlanLimits for an organization, or null while billing is off (nothing limited). */
export async function planLimitsOf(db: Db, billingOn: boolean, orgId: number): Promise<PlanLimits | null> {
  if (!billingOn) return null;
  const { plan } = await currentPlan(db, orgId);
  return { code: plan.billing_code, includes: plan.includes };
}

/**
 * Whether the organization's plan includes `feature` (a capability slug such as `saml`);
 * always true while billing is off. Issue 20 (SSO) calls this with 'saml' before enabling SAML.
 */
export async function planIncludes(db: Db, billingOn: boolean, orgId: number, feature: string): Promise<boolean> {
  const limits = await planLimitsOf(db, billingOn, orgId);
  return limits === null || (limits.includes[feature] ?? 0) > 0;
}

/** The period end of a cycle starting at `start`. */
export function periodEnd(start: Date, cycle: BillingCycle): Date {
  const end = new Date(start);
  if (cycle === 'annual') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}
