import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../infra/db/db.js';
import { billingEnabled } from '../access.js';
import { currentPeriod, periodMonths, type ActiveSubscription } from './period.js';
import { countUsage, selectActiveSubscription, selectPlanPrices, selectSubscribedOrganizations, selectUsage, upsertUsage, type PlanPrices } from './usage.repository.js';

/**
 * Issue 18 item 3, the usage ledger: per organization with an active subscription, its
 * current period's usage by resource (`device:<class>`, `member:<seat role>`), current and
 * peak, in `usage_record`. Organizations without a subscription are skipped (the plans slice
 * gives every organization one).
 */
export async function recordUsageFor(app: FastifyInstance, db: Db, organization: number): Promise<boolean> {
  if (!billingEnabled(app)) return false;
  const sub = await selectActiveSubscription(db, organization);
  if (!sub) return false;
  const now = new Date(app.context.clock());
  const period = currentPeriod(sub, now);
  await upsertUsage(db, organization, period.start, await countUsage(db, organization), now);
  return true;
}

/** The ledger job: every subscribed organization. Returns how many were recorded. */
export async function recordAllUsage(app: FastifyInstance): Promise<number> {
  if (!billingEnabled(app)) return 0;
  let n = 0;
  for (const org of await selectSubscribedOrganizations(app.context.db)) {
    try {
      if (await recordUsageFor(app, app.context.db, org)) n++;
    } catch (err) {
      app.log.error({ err, organization: org }, 'usage ledger: recording failed');
    }
  }
  return n;
}

/**
 * What a plan includes of a resource: devices, the plan's included quantity of their class;
 * seats, one administrator (the organization's owner) and no other role (`member:operator`
 * among a plan's features is the capability to have operators, not a free seat).
 */
export function includedQuantity(resource: string, prices: PlanPrices): number {
  if (resource.startsWith('device:')) return prices.includes[resource] ?? 0;
  if (resource === 'member:administrator') return 1;
  return 0;
}

/** Device credits consumed in a period, by resource (the credits slice sets the source). */
export type CreditConsumptionSource = (db: Db, organization: number, period: { start: Date; end: Date }) => Promise<Record<string, number>>;
const creditSources = new WeakMap<FastifyInstance, CreditConsumptionSource>();

/**
 * The hook for the credits slice: how many device credits an organization consumed in a
 * period, by resource. Until it is set, `creditConsumption` is `{}` and nothing is deducted.
 */
export function useCreditConsumptionSource(app: FastifyInstance, source: CreditConsumptionSource): void {
  creditSources.set(app, source);
}

export interface UsageSummary {
  currentUsage: Record<string, number>;
  peakUsage: Record<string, number>;
  /** Peak beyond what the plan includes (and beyond credits consumed). */
  overage: Record<string, number>;
  /** Overage × the plan's monthly add-on price × months of the period, in cents. */
  charges: Record<string, number>;
  creditConsumption: Record<string, number>;
}

/** The usage of one period of a subscription, read from the ledger. */
export async function usageSummary(app: FastifyInstance, db: Db, sub: ActiveSubscription, period: { start: Date; end: Date }): Promise<UsageSummary & { prices: PlanPrices }> {
  const rows = await selectUsage(db, sub.organization, period.start);
  const prices = await selectPlanPrices(db, sub.plan);
  const source = creditSources.get(app);
  const creditConsumption = source ? await source(db, sub.organization, period) : {};
  const summary: UsageSummary = { currentUsage: {}, peakUsage: {}, overage: {}, charges: {}, creditConsumption };
  const months = periodMonths(sub.billing_cycle);
  for (const r of rows) {
    summary.currentUsage[r.resource] = r.current_usage;
    summary.peakUsage[r.resource] = r.peak_usage;
    const over = Math.max(0, r.peak_usage - includedQuantity(r.resource, prices) - (creditConsumption[r.resource] ?? 0));
    summary.overage[r.resource] = over;
    summary.charges[r.resource] = over * (prices.addons[r.resource] ?? 0) * months;
  }
  return { ...summary, prices };
}

/** `GET …/usage`: the current period's usage (recorded now, so it is up to date). */
export async function currentUsage(app: FastifyInstance, organization: number): Promise<UsageSummary> {
  const { db } = app.context;
  await recordUsageFor(app, db, organization);
  const sub = await selectActiveSubscription(db, organization);
  if (!sub) return { currentUsage: {}, peakUsage: {}, overage: {}, charges: {}, creditConsumption: {} };
  const { prices: _prices, ...summary } = await usageSummary(app, db, sub, currentPeriod(sub, new Date(app.context.clock())));
  return summary;
}
