import type { FastifyInstance } from 'fastify';
import { devicesCoveredBy, includedQuantity } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';
import { billingEnabled } from '../access.js';
import { ensureAllSubscriptions, ensureSubscription } from '../plans/index.js';
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
  await ensureAllSubscriptions(app.context.db, new Date(app.context.clock()));
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
 * Device credits (the credits part sets the source): `cover` says how many credits, by device
 * resource, pay for the overage of a period of `months` (whole devices only, within the
 * balance); `consume` deducts them from the organization's bundles when the period closes.
 */
export interface CreditConsumptionSource {
  cover(db: Db, organization: number, overage: Record<string, number>, months: number, now: Date): Promise<Record<string, number>>;
  consume(db: Db, organization: number, credits: number, now: Date): Promise<void>;
}
const creditSources = new WeakMap<FastifyInstance, CreditConsumptionSource>();

/** The hook for the credits part. Until it is set, `creditConsumption` is `{}` and nothing is deducted. */
export function useCreditConsumptionSource(app: FastifyInstance, source: CreditConsumptionSource): void {
  creditSources.set(app, source);
}

/** The credits part's source, if any (the period close deducts through it). */
export const creditConsumptionSource = (app: FastifyInstance): CreditConsumptionSource | undefined => creditSources.get(app);

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
  const months = periodMonths(sub.billing_cycle);
  const beyondPlan: Record<string, number> = {};
  for (const r of rows) beyondPlan[r.resource] = Math.max(0, r.peak_usage - includedQuantity(r.resource, prices.includes));
  const source = creditSources.get(app);
  const devicesOver = Object.fromEntries(Object.entries(beyondPlan).filter(([resource, over]) => resource.startsWith('device:') && over > 0));
  const creditConsumption = source && Object.keys(devicesOver).length > 0 ? await source.cover(db, sub.organization, devicesOver, months, new Date(app.context.clock())) : {};
  const summary: UsageSummary = { currentUsage: {}, peakUsage: {}, overage: {}, charges: {}, creditConsumption };
  for (const r of rows) {
    summary.currentUsage[r.resource] = r.current_usage;
    summary.peakUsage[r.resource] = r.peak_usage;
    const covered = Math.min(beyondPlan[r.resource] ?? 0, devicesCoveredBy(creditConsumption[r.resource] ?? 0, months));
    const over = (beyondPlan[r.resource] ?? 0) - covered;
    summary.overage[r.resource] = over;
    summary.charges[r.resource] = over * (prices.addons[r.resource] ?? 0) * months;
  }
  return { ...summary, prices };
}

/** `GET …/usage`: the current period's usage (recorded now, so it is up to date). */
export async function currentUsage(app: FastifyInstance, organization: number): Promise<UsageSummary> {
  const { db } = app.context;
  // Every organization has a subscription (one created since start-up gets its free plan here).
  if (billingEnabled(app)) await ensureSubscription(db, organization, new Date(app.context.clock()));
  await recordUsageFor(app, db, organization);
  const sub = await selectActiveSubscription(db, organization);
  if (!sub) return { currentUsage: {}, peakUsage: {}, overage: {}, charges: {}, creditConsumption: {} };
  const { prices: _prices, ...summary } = await usageSummary(app, db, sub, currentPeriod(sub, new Date(app.context.clock())));
  return summary;
}
