import { DEVICE_CLASSES, SEAT_ROLES, deviceFeature, seatFeature } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';
import { countDevicesByClass, countSeatsByRole } from '../plans/plans.repository.js';
import type { ActiveSubscription } from './period.js';

/** The organization's active subscription with its plan (undefined: none yet). */
export async function selectActiveSubscription(db: Db, organization: number, lock = false): Promise<ActiveSubscription | undefined> {
  const { rows } = await db.query<ActiveSubscription>(
    `SELECT s.id, s.is_for__organization AS organization, s.is_for__plan AS plan, p.billing_code AS plan_code, p.title AS plan_title,
            p.monthly_price, p.annual_price, s.billing_cycle, s.starts_on__date, s.current_period_ends_on__date, s.discount_percentage
       FROM subscription s JOIN plan p ON p.id = s.is_for__plan
      WHERE s.is_for__organization = $1 AND s.is_active${lock ? ' FOR UPDATE OF s' : ''}`,
    [organization],
  );
  return rows[0];
}

/** Organizations with an active subscription (the ledger's sweep), in id order. */
export async function selectSubscribedOrganizations(db: Db): Promise<number[]> {
  const { rows } = await db.query<{ o: number }>('SELECT is_for__organization AS o FROM subscription WHERE is_active ORDER BY 1');
  return rows.map((r) => r.o);
}

/**
 * What the organization uses now, by resource: devices by billing class and members by seat
 * role, counted by the plans part's rules (one rule for charges, limits and the ledger).
 * Every class and role is present.
 */
export async function countUsage(db: Db, organization: number): Promise<Record<string, number>> {
  const usage: Record<string, number> = {};
  const devices = await countDevicesByClass(db, organization);
  const seats = await countSeatsByRole(db, organization);
  for (const c of DEVICE_CLASSES) usage[deviceFeature(c)] = devices[c] ?? 0;
  for (const r of SEAT_ROLES) usage[seatFeature(r)] = seats[r] ?? 0;
  return usage;
}

/** Records the counts for the period: current replaced, peak kept at the highest seen. */
export async function upsertUsage(db: Db, organization: number, periodStart: Date, usage: Record<string, number>, at: Date): Promise<void> {
  const resources = Object.keys(usage);
  await db.query(
    `INSERT INTO usage_record (organization, period_start, resource, current_usage, peak_usage, recorded_at)
     SELECT $1, $2, r, n, n, $5 FROM unnest($3::text[], $4::integer[]) AS u(r, n)
     ON CONFLICT (organization, period_start, resource) DO UPDATE
        SET current_usage = EXCLUDED.current_usage, peak_usage = GREATEST(usage_record.peak_usage, EXCLUDED.current_usage), recorded_at = EXCLUDED.recorded_at`,
    [organization, periodStart, resources, resources.map((r) => usage[r]), at],
  );
}

export interface UsageRow {
  resource: string;
  current_usage: number;
  peak_usage: number;
}

export async function selectUsage(db: Db, organization: number, periodStart: Date): Promise<UsageRow[]> {
  const { rows } = await db.query<UsageRow>(
    'SELECT resource, current_usage, peak_usage FROM usage_record WHERE organization = $1 AND period_start = $2 ORDER BY resource',
    [organization, periodStart],
  );
  return rows;
}

export interface PlanPrices {
  /** Included quantity by feature slug. */
  includes: Record<string, number>;
  /** Per-unit monthly price by feature slug (add-ons billed dynamically). */
  addons: Record<string, number>;
  titles: Record<string, string>;
}

export async function selectPlanPrices(db: Db, plan: number): Promise<PlanPrices> {
  const prices: PlanPrices = { includes: {}, addons: {}, titles: {} };
  const inc = await db.query<{ slug: string; title: string; quantity: number }>(
    'SELECT f.slug, f.title, pf.quantity FROM plan_feature pf JOIN feature f ON f.id = pf.feature WHERE pf.plan = $1',
    [plan],
  );
  for (const r of inc.rows) {
    prices.includes[r.slug] = r.quantity;
    prices.titles[r.slug] = r.title;
  }
  const add = await db.query<{ slug: string; title: string; base_price: number }>(
    'SELECT f.slug, f.title, pa.base_price FROM plan_addon pa JOIN feature f ON f.id = pa.feature WHERE pa.plan = $1 AND pa.bills_dynamically',
    [plan],
  );
  for (const r of add.rows) {
    prices.addons[r.slug] = r.base_price;
    prices.titles[r.slug] = r.title;
  }
  return prices;
}

/** The period close rolls the subscription's period forward. */
export async function updateSubscriptionPeriodEnd(db: Db, subscription: number, end: Date): Promise<void> {
  await db.query('UPDATE subscription SET current_period_ends_on__date = $2 WHERE id = $1', [subscription, end]);
}

/** Organizations whose active subscription's period has ended by `now`. */
export async function selectOrganizationsWithEndedPeriods(db: Db, now: Date): Promise<number[]> {
  const { rows } = await db.query<{ o: number }>(
    'SELECT is_for__organization AS o FROM subscription WHERE is_active AND current_period_ends_on__date <= $1 ORDER BY 1',
    [now],
  );
  return rows.map((r) => r.o);
}
