import type { BillingCycle, Catalogue, DeviceClass, SeatRole } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';

/** Issue 18: the catalogue tables and subscriptions (migration 0033). */

export interface PlanRow {
  id: number;
  title: string;
  billing_code: string;
  monthly_price: number;
  annual_price: number;
  can_self_serve: boolean;
  is_legacy: boolean;
  is_valid_from__date: Date | null;
  is_valid_until__date: Date | null;
  support_tier: string;
  position: number;
  description: string | null;
}

/** A plan with what it includes and sells, by feature slug. */
export interface PlanWithFeatures extends PlanRow {
  includes: Record<string, number>;
  addons: Record<string, number>;
}

export interface SubscriptionRow {
  id: number;
  is_for__organization: number;
  is_for__plan: number;
  billing_cycle: BillingCycle;
  starts_on__date: Date;
  ends_on__date: Date | null;
  current_period_ends_on__date: Date | null;
  is_active: boolean;
  origin: string;
  change_reason: string | null;
}

const CATALOGUE_LOCK = "hashtext('flotilla.billing.catalogue')";

/**
 * Writes the catalogue's rows (docs/billing.md "Operator's plans file"), idempotently, under an
 * advisory lock so several processes starting at once take turns. Features by slug; plans by
 * billing code (position = order in the file; title, prices, self-serve and validity dates are
 * the file's when the plan is new, afterwards a platform administrator's edits are kept: see
 * docs/decisions.md); what each plan includes and sells is the file's. A plan that is no longer
 * in the file stays (subscriptions reference it) but stops being self-serve.
 */
export async function seedCatalogue(db: Db, catalogue: Catalogue): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${CATALOGUE_LOCK})`);
    const featureIds = new Map<string, number>();
    for (const f of catalogue.features) {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO feature (slug, title, billing_code) VALUES ($1, $2, $3)
         ON CONFLICT (slug) DO UPDATE SET title = EXCLUDED.title, billing_code = EXCLUDED.billing_code RETURNING id`,
        [f.slug, f.title, f.billingCode ?? null],
      );
      featureIds.set(f.slug, rows[0]!.id);
    }
    for (const [position, p] of catalogue.plans.entries()) {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO plan (billing_code, title, monthly_price, annual_price, can_self_serve, is_legacy, is_valid_from__date, is_valid_until__date, support_tier, position, description)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (billing_code) DO UPDATE SET is_legacy = EXCLUDED.is_legacy, support_tier = EXCLUDED.support_tier,
           position = EXCLUDED.position, description = EXCLUDED.description
         RETURNING id`,
        [p.code, p.title, p.monthlyPrice, p.annualPrice, p.canSelfServe, p.isLegacy ?? false, p.validFrom ?? null, p.validUntil ?? null, p.supportTier, position, p.description ?? null],
      );
      const planId = rows[0]!.id;
      const includes = Object.entries(p.includes).map(([slug, q]) => [featureIds.get(slug)!, q] as const);
      const addons = Object.entries(p.addons).map(([slug, price]) => [featureIds.get(slug)!, price] as const);
      await tx.query('DELETE FROM plan_feature WHERE plan = $1 AND NOT (feature = ANY($2::int[]))', [planId, includes.map(([f]) => f)]);
      await tx.query('DELETE FROM plan_addon WHERE plan = $1 AND NOT (feature = ANY($2::int[]))', [planId, addons.map(([f]) => f)]);
      for (const [feature, quantity] of includes) {
        await tx.query(
          `INSERT INTO plan_feature (plan, feature, quantity) VALUES ($1, $2, $3) ON CONFLICT (plan, feature) DO UPDATE SET quantity = EXCLUDED.quantity`,
          [planId, feature, quantity],
        );
      }
      for (const [feature, price] of addons) {
        await tx.query(
          `INSERT INTO plan_addon (plan, feature, base_price) VALUES ($1, $2, $3) ON CONFLICT (plan, feature) DO UPDATE SET base_price = EXCLUDED.base_price`,
          [planId, feature, price],
        );
      }
    }
    await tx.query('UPDATE plan SET can_self_serve = false WHERE can_self_serve AND NOT (billing_code = ANY($1::text[]))', [catalogue.plans.map((p) => p.code)]);
  });
}

const PLAN_WITH_FEATURES = `
  SELECT p.*,
    COALESCE((SELECT json_object_agg(f.slug, pf.quantity) FROM plan_feature pf JOIN feature f ON f.id = pf.feature WHERE pf.plan = p.id), '{}'::json) AS includes,
    COALESCE((SELECT json_object_agg(f.slug, pa.base_price) FROM plan_addon pa JOIN feature f ON f.id = pa.feature WHERE pa.plan = p.id), '{}'::json) AS addons
  FROM plan p`;

export async function selectPlans(db: Db): Promise<PlanWithFeatures[]> {
  const { rows } = await db.query<PlanWithFeatures>(`${PLAN_WITH_FEATURES} ORDER BY p.position, p.id`);
  return rows;
}

export async function selectPlanByCode(db: Db, code: string): Promise<PlanWithFeatures | undefined> {
  const { rows } = await db.query<PlanWithFeatures>(`${PLAN_WITH_FEATURES} WHERE p.billing_code = $1`, [code]);
  return rows[0];
}

export async function selectPlanById(db: Db, id: number): Promise<PlanWithFeatures | undefined> {
  const { rows } = await db.query<PlanWithFeatures>(`${PLAN_WITH_FEATURES} WHERE p.id = $1`, [id]);
  return rows[0];
}

export interface PlanEdit {
  title?: string;
  monthly_price?: number;
  annual_price?: number;
  can_self_serve?: boolean;
  is_valid_from__date?: string | null;
  is_valid_until__date?: string | null;
}

export async function updatePlan(db: Db, id: number, edit: PlanEdit): Promise<boolean> {
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const [k, v] of Object.entries(edit)) {
    if (v === undefined) continue;
    values.push(v);
    sets.push(`"${k}" = $${values.length}`);
  }
  if (sets.length === 0) return (await db.query('SELECT 1 FROM plan WHERE id = $1', [id])).rows.length > 0;
  const { rowCount } = await db.query(`UPDATE plan SET ${sets.join(', ')} WHERE id = $1`, values);
  return (rowCount ?? 0) > 0;
}

export async function selectActiveSubscription(db: Db, orgId: number, lock = false): Promise<SubscriptionRow | undefined> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT * FROM subscription WHERE is_for__organization = $1 AND is_active${lock ? ' FOR UPDATE' : ''}`,
    [orgId],
  );
  return rows[0];
}

/**
 * A new active subscription starting `now` (current period end: a month or a year later).
 * With `onlyIfNone`, nothing is written when the organization already has an active one.
 */
export async function insertSubscription(
  db: Db,
  input: { organization: number; plan: number; cycle: BillingCycle; origin: string; changeReason?: string | null; now: Date },
  onlyIfNone = false,
): Promise<SubscriptionRow | undefined> {
  const { rows } = await db.query<SubscriptionRow>(
    `INSERT INTO subscription (is_for__organization, is_for__plan, billing_cycle, starts_on__date, current_period_ends_on__date, origin, change_reason)
     VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz + $7::interval, $5, $6)
     ${onlyIfNone ? 'ON CONFLICT (is_for__organization) WHERE is_active DO NOTHING' : ''}
     RETURNING *`,
    [input.organization, input.plan, input.cycle, input.now, input.origin, input.changeReason ?? null, input.cycle === 'annual' ? '1 year' : '1 month'],
  );
  return rows[0];
}

/**
 * Every organization without an active subscription gets the free plan, monthly, from `now`
 * (organizations that predate billing being turned on, or created by paths that bypass the
 * sign-up rule). One statement; safe beside concurrent sign-ups (the partial unique index).
 */
export async function insertMissingFreeSubscriptions(db: Db, freeCode: string, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO subscription (is_for__organization, is_for__plan, billing_cycle, starts_on__date, current_period_ends_on__date, origin)
     SELECT o.id, p.id, 'monthly', $2::timestamptz, $2::timestamptz + interval '1 month', 'signup'
       FROM organization o JOIN plan p ON p.billing_code = $1
      WHERE NOT EXISTS (SELECT 1 FROM subscription s WHERE s.is_for__organization = o.id AND s.is_active)
     ON CONFLICT (is_for__organization) WHERE is_active DO NOTHING`,
    [freeCode, now],
  );
  return rowCount ?? 0;
}

export async function endSubscription(db: Db, id: number, now: Date): Promise<void> {
  await db.query('UPDATE subscription SET is_active = false, ends_on__date = $2 WHERE id = $1', [id, now]);
}

/*
 * THE counting rules of billing: the plan's charges, its limits, the usage ledger and the
 * plan-change proposal all count through these functions (docs/decisions.md "What a plan
 * includes"): a device counts while it is active (a deactivated device is not billed), a
 * membership counts at its effective seat role, and an administrator without one at
 * `administrator`, anyone else without one at `member`.
 */

/** Devices of the organization by billing class (docs/billing.md: legacy application types bill as legacy-v1). */
export async function countDevicesByClass(db: Db, orgId: number): Promise<Partial<Record<DeviceClass, number>>> {
  const { rows } = await db.query<{ class: DeviceClass; n: number }>(
    `SELECT CASE WHEN COALESCE(t.is_legacy, false) THEN 'legacy-v1' ELSE 'microservices-v1' END AS class, count(*)::int AS n
       FROM device d JOIN application a ON a.id = d.belongs_to__application LEFT JOIN application_type t ON t.id = a.application_type
      WHERE a.organization = $1 AND d.is_active GROUP BY 1`,
    [orgId],
  );
  return Object.fromEntries(rows.map((r) => [r.class, r.n]));
}

/** How many of the devices `ids` belong to fleets of organizations other than `orgId`. */
export async function countDevicesOutside(db: Db, ids: readonly number[], orgId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM device d JOIN application a ON a.id = d.belongs_to__application WHERE d.id = ANY($1::int[]) AND a.organization <> $2',
    [ids, orgId],
  );
  return rows[0]?.n ?? 0;
}

export async function countDevices(db: Db, orgId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM device d JOIN application a ON a.id = d.belongs_to__application WHERE a.organization = $1 AND d.is_active',
    [orgId],
  );
  return rows[0]?.n ?? 0;
}

/** Seats by effective seat role (administrators without one count as administrators, others as members). */
export async function countSeatsByRole(db: Db, orgId: number): Promise<Partial<Record<SeatRole, number>>> {
  const { rows } = await db.query<{ role: SeatRole; n: number }>(
    `SELECT COALESCE(m.effective_seat_role, CASE WHEN r.name = 'administrator' THEN 'administrator' ELSE 'member' END) AS role, count(*)::int AS n
       FROM organization_membership m JOIN organization_membership_role r ON r.id = m.organization_membership_role
      WHERE m.is_member_of__organization = $1 GROUP BY 1`,
    [orgId],
  );
  return Object.fromEntries(rows.map((r) => [r.role, r.n]));
}

export async function organizationOfFleet(db: Db, fleetId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ organization: number }>('SELECT organization FROM application WHERE id = $1', [fleetId]);
  return rows[0]?.organization;
}

export async function fleetRoleName(db: Db, roleId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM application_membership_role WHERE id = $1', [roleId]);
  return rows[0]?.name;
}

/** Organizations of the devices `ids` (to check deactivation per organization). */
export async function organizationsOfDevices(db: Db, ids: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ o: number }>(
    'SELECT DISTINCT a.organization AS o FROM device d JOIN application a ON a.id = d.belongs_to__application WHERE d.id = ANY($1::int[])',
    [ids],
  );
  return rows.map((r) => r.o);
}

export async function isEmailVerified(db: Db, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ v: boolean }>('SELECT is_verified AS v FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.v === true;
}

/** Locks the organization row (serialises plan changes and device additions of one organization). */
export async function lockOrganization(db: Db, orgId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT id FROM organization WHERE id = $1 FOR UPDATE', [orgId]);
  return rows.length > 0;
}

/**
 * The account-deletion wizard's cancel step (spec 1 §7, spec 3 §4): the organizations being
 * deleted end their subscriptions (their rows then go with the organization). Custom plans are
 * refused before this by the wizard's own rule.
 */
export async function cancelSubscriptions(db: Db, orgIds: readonly number[], now: Date): Promise<number> {
  if (orgIds.length === 0) return 0;
  const { rowCount } = await db.query(
    'UPDATE subscription SET is_active = false, ends_on__date = $2 WHERE is_for__organization = ANY($1::int[]) AND is_active',
    [orgIds, now],
  );
  return rowCount ?? 0;
}

/** Billing codes of the organizations' active plans ('free' for one without a subscription). */
export async function planCodesOf(db: Db, orgIds: readonly number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ o: number; code: string }>(
    `SELECT s.is_for__organization AS o, p.billing_code AS code FROM subscription s JOIN plan p ON p.id = s.is_for__plan
      WHERE s.is_for__organization = ANY($1::int[]) AND s.is_active`,
    [orgIds],
  );
  return new Map(rows.map((r) => [r.o, r.code]));
}


/** The provider's reference of a subscription invoice's charge; paid at once (a card) or left open (manual). */
export async function recordCharge(db: Db, invoiceId: number, reference: string, paid: boolean, now: Date): Promise<void> {
  await db.query(
    `UPDATE invoice SET provider_reference = $2, state = $3::text, paid_at = CASE WHEN $3::text = 'paid' THEN $4::timestamptz END WHERE id = $1`,
    [invoiceId, reference, paid ? 'paid' : 'open', now],
  );
}

/** Organizations of the fleets of fleet memberships or team fleet accesses `ids`. */
export async function organizationsOfFleetGrants(db: Db, table: 'user_application_membership' | 'team_application_access', ids: readonly number[]): Promise<number[]> {
  const fleet = table === 'user_application_membership' ? 'is_member_of__application' : 'grants_access_to__application';
  const { rows } = await db.query<{ o: number }>(
    `SELECT DISTINCT a.organization AS o FROM ${table} t JOIN application a ON a.id = t.${fleet} WHERE t.id = ANY($1::int[])`,
    [ids],
  );
  return rows.map((r) => r.o);
}

/**
 * Lowers every `operator` fleet grant of organization `orgId` (user fleet memberships and team
 * fleet access) to `fallback`, and operator seat roles with them (issue 18: a change to a plan
 * without operator seats). Answers how many grants were lowered.
 */
export async function lowerOperators(db: Db, orgId: number, fallback: string): Promise<number> {
  const roles = `(SELECT id FROM application_membership_role WHERE name = 'operator') AS op, (SELECT id FROM application_membership_role WHERE name = $2) AS fb`;
  const members = await db.query(
    `UPDATE user_application_membership m SET application_membership_role = fb.id
       FROM ${roles}, application a
      WHERE m.application_membership_role = op.id AND a.id = m.is_member_of__application AND a.organization = $1`,
    [orgId, fallback],
  );
  const teams = await db.query(
    `UPDATE team_application_access t SET application_membership_role = fb.id
       FROM ${roles}, application a
      WHERE t.application_membership_role = op.id AND a.id = t.grants_access_to__application AND a.organization = $1`,
    [orgId, fallback],
  );
  await db.query(`UPDATE organization_membership SET effective_seat_role = $2 WHERE is_member_of__organization = $1 AND effective_seat_role = 'operator'`, [orgId, fallback]);
  return (members.rowCount ?? 0) + (teams.rowCount ?? 0);
}
