import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_LIMIT_MESSAGES as M, DEFAULT_CATALOGUE, type Catalogue } from '@flotilla/model';
import { buildApp } from '../../../app.js';
import { addOrganizationMember, bearer, buildTestApp, insertFleet, sdkClient, type SignedUpUser, signInStaff, signUp, TEST_JWT_SECRET, type TestApp } from '../../../../test/harness.js';
import { upsertBillingInfo } from '../payments/payments.repository.js';
import { NO_BILLING_ACCESS_MESSAGE } from '../access.js';
import { loadPlansFile, parseCatalogue } from './plans-file.js';
import { seedCatalogue } from './plans.repository.js';
import { ensureSubscription, planIncludes } from './subscriptions.js';

// Issue 18 items 1, 2: the catalogue, subscriptions, plan change and cancel, and the plan limits,
// on real PostgreSQL with balena-sdk as the client over real HTTP.

let t: TestApp;
let apiUrl: string;
let off: TestApp;
/** The billing app's log at the production default level (info). */
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  t = await buildTestApp({ billing: { enabled: true }, logLevel: 'info', logStream: { write: (line) => void logLines.push(JSON.parse(line) as Record<string, unknown>) } });
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  off = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

const sdkAs = async (token: string) => {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(token);
  return sdk;
};
const patchPlan = (app: TestApp, u: SignedUpUser, body: object, org = u.orgId) =>
  app.app.inject({ method: 'PATCH', url: `/billing/v1/account/${org}/plan`, headers: bearer(u.token), payload: body });
const getPlan = (app: TestApp, u: SignedUpUser, org = u.orgId) => app.app.inject({ method: 'GET', url: `/billing/v1/account/${org}/plan`, headers: bearer(u.token) });
const active = async (app: TestApp, org: number) =>
  (
    await app.db.query<{ code: string; billing_cycle: string; origin: string; change_reason: string | null; starts: Date; ends: Date }>(
      `SELECT p.billing_code AS code, s.billing_cycle, s.origin, s.change_reason, s.starts_on__date AS starts, s.current_period_ends_on__date AS ends
         FROM subscription s JOIN plan p ON p.id = s.is_for__plan WHERE s.is_for__organization = $1 AND s.is_active`,
      [org],
    )
  ).rows;
const counts = async (app: TestApp, org: number) => {
  const { rows } = await app.db.query<{ subs: number; invoices: number }>(
    `SELECT (SELECT count(*)::int FROM subscription WHERE is_for__organization = $1) AS subs, (SELECT count(*)::int FROM invoice WHERE organization = $1) AS invoices`,
    [org],
  );
  return rows[0]!;
};
const addPaymentMethod = (app: TestApp, org: number) => upsertBillingInfo(app.db, org, 'manual', { type: 'manual' });
async function addDevices(app: TestApp, fleet: number, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const actor = (await app.db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
    const { rows } = await app.db.query<{ id: number }>(
      `INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type)
       SELECT $1, $2, $3, $4, is_for__device_type FROM application WHERE id = $4 RETURNING id`,
      [actor, randomBytes(16).toString('hex'), `dev-${randomBytes(3).toString('hex')}`, fleet],
    );
    ids.push(rows[0]!.id);
  }
  return ids;
}
/** Moves `u`'s organization to a paid plan through the API (a manual payment method first). */
async function upgrade(app: TestApp, u: SignedUpUser, tier = 'prototype-v2'): Promise<void> {
  await addPaymentMethod(app, u.orgId);
  const res = await patchPlan(app, u, { tier, annual: false });
  expect(res.statusCode, res.body).toBe(200);
}
const roleId = async (app: TestApp, name: string) =>
  (await app.db.query<{ id: number }>('SELECT id FROM application_membership_role WHERE name = $1', [name])).rows[0]!.id;

describe('billing mode and catalogue', () => {
  it('says in /config/dashboard whether billing is on', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/config/dashboard' })).json()).toMatchObject({ billing: true });
    expect((await off.app.inject({ method: 'GET', url: '/config/dashboard' })).json()).toMatchObject({ billing: false });
  });

  it('seeds the catalogue from the file: plans in order with what they include and sell', async () => {
    const { rows } = await t.db.query<{ billing_code: string; position: number; monthly_price: number; can_self_serve: boolean }>(
      'SELECT billing_code, position, monthly_price, can_self_serve FROM plan ORDER BY position',
    );
    expect(rows.map((r) => r.billing_code)).toEqual(DEFAULT_CATALOGUE.plans.map((p) => p.code));
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2, 3, 4]);
    const free = await t.db.query<{ quantity: number }>(
      `SELECT pf.quantity FROM plan_feature pf JOIN plan p ON p.id = pf.plan JOIN feature f ON f.id = pf.feature WHERE p.billing_code = 'free' AND f.slug = 'device:microservices-v1'`,
    );
    expect(free.rows[0]?.quantity).toBe(10);
    const op = await t.db.query<{ base_price: number }>(
      `SELECT pa.base_price FROM plan_addon pa JOIN plan p ON p.id = pa.plan JOIN feature f ON f.id = pa.feature WHERE p.billing_code = 'pilot-v2' AND f.slug = 'member:operator'`,
    );
    expect(op.rows[0]?.base_price).toBe(2900);
  });

  it('seeds idempotently, also from several processes at once; a plan gone from the file stays but is no longer self-serve; admin prices are kept', async () => {
    const before = await t.db.query<{ n: number }>('SELECT (SELECT count(*) FROM plan) + (SELECT count(*) FROM plan_feature) + (SELECT count(*) FROM plan_addon) + (SELECT count(*) FROM feature) AS n');
    await Promise.all([seedCatalogue(t.db, DEFAULT_CATALOGUE), seedCatalogue(t.db, DEFAULT_CATALOGUE), seedCatalogue(t.db, DEFAULT_CATALOGUE)]);
    const after = await t.db.query<{ n: number }>('SELECT (SELECT count(*) FROM plan) + (SELECT count(*) FROM plan_feature) + (SELECT count(*) FROM plan_addon) + (SELECT count(*) FROM feature) AS n');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);

    const db = (await buildTestApp({ billing: { enabled: true } }));
    try {
      await db.db.query(`UPDATE plan SET monthly_price = 12345 WHERE billing_code = 'pilot-v2'`);
      const smaller: Catalogue = { ...DEFAULT_CATALOGUE, plans: DEFAULT_CATALOGUE.plans.filter((p) => p.code !== 'production-v2') };
      await seedCatalogue(db.db, smaller);
      const { rows } = await db.db.query<{ billing_code: string; can_self_serve: boolean; monthly_price: number }>('SELECT billing_code, can_self_serve, monthly_price FROM plan ORDER BY position');
      expect(rows.find((r) => r.billing_code === 'production-v2')).toMatchObject({ can_self_serve: false });
      expect(rows.find((r) => r.billing_code === 'pilot-v2')).toMatchObject({ can_self_serve: true, monthly_price: 12345 });
    } finally {
      await db.close();
    }
  });

  it('refuses a bad plans file with a message naming the file and the bad field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plans-'));
    const bad = join(dir, 'plans.json');
    const plans = DEFAULT_CATALOGUE.plans.map((p, i) => (i === 2 ? { ...p, monthlyPrice: -5 } : p));
    writeFileSync(bad, JSON.stringify({ ...DEFAULT_CATALOGUE, plans }));
    expect(() => loadPlansFile(bad)).toThrow(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*plans\\.2\\.monthlyPrice`));
    expect(() => parseCatalogue('{ not json', 'x.json')).toThrow(/x\.json.*not JSON/);
    expect(() => parseCatalogue(JSON.stringify({ ...DEFAULT_CATALOGUE, plans: DEFAULT_CATALOGUE.plans.slice(1) }), 'y.json')).toThrow(/y\.json[\s\S]*plans: a plan with code 'free'/);
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(DEFAULT_CATALOGUE));
    expect(loadPlansFile(good).plans).toHaveLength(5);
  });
});

describe('subscriptions', () => {
  it('starts every new organization on the free plan, monthly, for one month', async () => {
    const u = await signUp(t.app);
    const subs = await active(t, u.orgId);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ code: 'free', billing_cycle: 'monthly', origin: 'signup' });
    const end = new Date(subs[0]!.starts);
    end.setUTCMonth(end.getUTCMonth() + 1);
    expect(subs[0]!.ends.toISOString()).toBe(end.toISOString());
  });

  it('gives an organization that predates billing its free subscription when first asked, once', async () => {
    const u = await signUp(t.app);
    await t.db.query('DELETE FROM subscription WHERE is_for__organization = $1', [u.orgId]);
    await Promise.all([ensureSubscription(t.db, u.orgId), ensureSubscription(t.db, u.orgId)]);
    expect(await active(t, u.orgId)).toHaveLength(1);
    await t.db.query('DELETE FROM subscription WHERE is_for__organization = $1', [u.orgId]);
    expect((await getPlan(t, u)).json()).toMatchObject({ code: 'free' });
    expect(await active(t, u.orgId)).toHaveLength(1);
  });

  it('counts the usage of an organization that predates billing (its usage page creates the free subscription)', async () => {
    const u = await signUp(t.app);
    await t.db.query('DELETE FROM subscription WHERE is_for__organization = $1', [u.orgId]);
    const res = await t.app.inject({ method: 'GET', url: `/billing/v1/account/${u.orgId}/usage`, headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    const seats = Object.entries(res.json<{ currentUsage: Record<string, number> }>().currentUsage).filter(([k]) => k.startsWith('member:'));
    expect(seats.reduce((sum, [, n]) => sum + n, 0)).toBe(1);
    expect(await active(t, u.orgId)).toMatchObject([{ code: 'free' }]);
  });

  it('starts every organization without a subscription on the free plan when billing is turned on', async () => {
    const u = await signUp(off.app);
    const { rows } = await off.db.query<{ id: number }>("INSERT INTO organization (name, handle) VALUES ('Seeded', $1) RETURNING id", [`seeded_${randomBytes(3).toString('hex')}`]);
    const seeded = rows[0]!.id;
    expect(await active(off, u.orgId)).toHaveLength(0);
    const on = await buildApp({ db: off.db, jwtSecret: TEST_JWT_SECRET, billing: { enabled: true } });
    try {
      expect(await active(off, u.orgId)).toMatchObject([{ code: 'free', billing_cycle: 'monthly' }]);
      expect(await active(off, seeded)).toMatchObject([{ code: 'free' }]);
    } finally {
      await on.close();
    }
  });

  it('writes no subscription while billing is off', async () => {
    const u = await signUp(off.app);
    expect(await active(off, u.orgId)).toHaveLength(0);
  });
});

describe('GET /billing/v1/account/{org}/plan', () => {
  it('answers BillingPlanInfo with the base price, seats by role and devices over what the plan includes', async () => {
    const u = await signUp(t.app);
    const dev = await signUp(t.app);
    await addOrganizationMember(t.db, dev.userId, u.orgId);
    await t.db.query(`UPDATE organization_membership SET effective_seat_role = 'developer' WHERE "user" = $1 AND is_member_of__organization = $2`, [dev.userId, u.orgId]);
    await addDevices(t, await insertFleet(t.db, u, 'chargedfleet'), 3);
    const sdk = await sdkAs(u.token);
    const plan = await sdk.models.billing.getPlan(u.orgId);
    expect(plan).toMatchObject({ tier: 'free', code: 'free', title: 'Free', intervalUnit: 'month', support: { name: 'community' } });
    expect(new Date(plan.currentPeriodEndDate!).getTime()).toBeGreaterThan(Date.now());
    const charges = Object.fromEntries(plan.billing.charges.map((c) => [c.code, [c.unitCostCents, c.quantity]]));
    expect(charges).toEqual({ free: ['0', '1'], 'member:administrator': ['4900', '0'], 'member:developer': ['4900', '1'], 'device:microservices-v1': ['0', '0'] });
    // The first administrator's seat is included (the model's includedQuantity).
    expect(plan.billing.totalCostCents).toBe('4900');
  });
});

describe('PATCH /billing/v1/account/{org}/plan (spec 3 §4 outcomes)', () => {
  it('refuses the current plan, contact-sales tiers, unknown codes and paid plans without a payment method, writing nothing', async () => {
    const u = await signUp(t.app);
    const before = await counts(t, u.orgId);
    const current = await patchPlan(t, u, { tier: 'free', annual: false });
    expect([current.statusCode, current.json()]).toEqual([409, M.alreadyCurrent]);
    const sales = await patchPlan(t, u, { tier: 'enterprise-v2', annual: true });
    expect([sales.statusCode, sales.json()]).toEqual([400, M.contactSales]);
    const unknown = await patchPlan(t, u, { tier: 'platinum-v9', annual: false });
    expect([unknown.statusCode, unknown.json()]).toEqual([400, M.unknownPlan]);
    const noMethod = await patchPlan(t, u, { tier: 'prototype-v2', annual: false });
    expect([noMethod.statusCode, noMethod.json()]).toEqual([400, M.needsPaymentMethod]);
    const badBody = await patchPlan(t, u, { tier: 'prototype-v2', annual: 'yes' });
    expect(badBody.statusCode).toBe(400);
    expect(await counts(t, u.orgId)).toEqual(before);
    expect(await active(t, u.orgId)).toMatchObject([{ code: 'free' }]);
  });

  it('upgrades with the manual provider (invoice open), changes cycle, downgrades keeping the reason, cancels to free', async () => {
    const u = await signUp(t.app);
    await addPaymentMethod(t, u.orgId);
    const sdk = await sdkAs(u.token);

    await sdk.models.billing.changePlan(u.orgId, { tier: 'prototype-v2', cycle: 'monthly', planChangeReason: 'not kept on upgrades' });
    expect(await active(t, u.orgId)).toMatchObject([{ code: 'prototype-v2', billing_cycle: 'monthly', origin: 'self-serve', change_reason: null }]);
    // The operator's log (LOG_LEVEL=info, the default) names the change; requests are not logged one by one.
    expect(logLines.filter((l) => l.organization === u.orgId && l.msg === `billing: user ${u.userId} changed organization ${u.orgId} from free (monthly) to prototype-v2 (monthly): upgrade`)).toHaveLength(1);
    expect(logLines.some((l) => l.msg === 'request completed' || l.msg === 'incoming request')).toBe(false);
    const inv = await t.db.query<{ invoice_number: string; state: string; total_in_cents: number; provider_reference: string; kind: string }>(
      'SELECT invoice_number, state, total_in_cents, provider_reference, kind FROM invoice WHERE organization = $1 ORDER BY id',
      [u.orgId],
    );
    expect(inv.rows).toHaveLength(1);
    expect(inv.rows[0]).toMatchObject({ state: 'open', total_in_cents: 9900, kind: 'subscription' });
    expect(inv.rows[0]!.invoice_number).toMatch(/^FLT-\d{6}$/);
    expect(inv.rows[0]!.provider_reference).toBe(`manual:${inv.rows[0]!.invoice_number}`);

    const cycle = await patchPlan(t, u, { tier: 'prototype-v2', annual: true });
    expect(cycle.json()).toMatchObject({ outcome: 'cycle-change', billingCycle: 'annual' });
    const annual = (await active(t, u.orgId))[0]!;
    const yearLater = new Date(annual.starts);
    yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
    expect(annual.ends.toISOString()).toBe(yearLater.toISOString());

    expect((await patchPlan(t, u, { tier: 'pilot-v2', annual: true })).json()).toMatchObject({ outcome: 'upgrade' });
    const down = await patchPlan(t, u, { tier: 'prototype-v2', annual: false, planChangeReason: '  too expensive  ' });
    expect(down.json()).toMatchObject({ outcome: 'downgrade' });
    expect(await active(t, u.orgId)).toMatchObject([{ code: 'prototype-v2', change_reason: 'too expensive' }]);
    const totals = await t.db.query<{ total_in_cents: number }>('SELECT total_in_cents FROM invoice WHERE organization = $1 ORDER BY id', [u.orgId]);
    expect(totals.rows.map((r) => r.total_in_cents)).toEqual([9900, 99000, 299000, 9900]);

    // Cancel: to the free plan, monthly; nothing to pay.
    await sdk.models.billing.changePlan(u.orgId, { tier: 'free', cycle: 'monthly', planChangeReason: 'done' });
    expect(await active(t, u.orgId)).toMatchObject([{ code: 'free', billing_cycle: 'monthly', change_reason: 'done' }]);
    expect((await counts(t, u.orgId)).invoices).toBe(4);
    expect((await counts(t, u.orgId)).subs).toBe(6);
  });

  it('blocks the free plan over the free allowance (spec 3 §4), writing nothing', async () => {
    const u = await signUp(t.app);
    await upgrade(t, u);
    await addDevices(t, await insertFleet(t.db, u, 'bigfleet'), 11);
    const before = await counts(t, u.orgId);
    const res = await patchPlan(t, u, { tier: 'free', annual: false });
    expect([res.statusCode, res.json()]).toEqual([400, M.freePlanBlocked]);
    expect(await counts(t, u.orgId)).toEqual(before);
    expect(await active(t, u.orgId)).toMatchObject([{ code: 'prototype-v2' }]);
  });
});

describe('who may use the plan routes', () => {
  it('refuses members without billing access (403) and other organizations (404); any member may ask about support', async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    const stranger = await signUp(t.app);
    await addOrganizationMember(t.db, member.userId, owner.orgId);
    for (const [u, status] of [[member, 403], [stranger, 404]] as const) {
      const g = await getPlan(t, u, owner.orgId);
      expect(g.statusCode).toBe(status);
      const p = await patchPlan(t, u, { tier: 'prototype-v2', annual: false }, owner.orgId);
      expect(p.statusCode).toBe(status);
      if (status === 403) expect(p.json()).toBe(NO_BILLING_ACCESS_MESSAGE);
    }
    const support = (u: SignedUpUser) => t.app.inject({ method: 'GET', url: `/billing/v1/account/${owner.orgId}/can-access-support`, headers: bearer(u.token) });
    expect((await support(member)).statusCode).toBe(200);
    expect((await support(stranger)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/billing/v1/account/${owner.orgId}/plan` })).statusCode).toBe(401);
    expect(await active(t, owner.orgId)).toMatchObject([{ code: 'free' }]);
  });

  it('answers 404 on every plan route while billing is off', async () => {
    const u = await signUp(off.app);
    expect((await getPlan(off, u)).statusCode).toBe(404);
    expect((await patchPlan(off, u, { tier: 'free', annual: false })).statusCode).toBe(404);
    // Issue 19: support is open with billing off (to verified members; this one is not verified).
    const support = await off.app.inject({ method: 'GET', url: `/billing/v1/account/${u.orgId}/can-access-support`, headers: bearer(u.token) });
    expect(support.statusCode).toBe(200);
    expect(support.json()).toBe(false);
  });
});

describe('private support (spec 3 §1)', () => {
  it('is for paid plans and verified emails', async () => {
    const u = await signUp(t.app);
    const ask = () => t.app.inject({ method: 'GET', url: `/billing/v1/account/${u.orgId}/can-access-support`, headers: bearer(u.token) });
    expect((await ask()).json()).toBe(false);
    await upgrade(t, u);
    expect((await ask()).json()).toBe(false);
    await t.db.query('UPDATE "user" SET is_verified = true WHERE id = $1', [u.userId]);
    expect((await ask()).json()).toBe(true);
  });
});

describe('plan limits (issue 18 item 2)', () => {
  async function fleetRoles(app: TestApp, owner: SignedUpUser) {
    const fleet = await insertFleet(app.db, owner, `limits${randomBytes(3).toString('hex')}`);
    const other = await signUp(app.app);
    await addOrganizationMember(app.db, other.userId, owner.orgId);
    const operator = await roleId(app, 'operator');
    const member = () => app.app.inject({ method: 'POST', url: '/v7/user_application_membership', headers: bearer(owner.token), payload: { user: other.userId, is_member_of__application: fleet, application_membership_role: operator } });
    const team = async () => {
      const tm = await app.app.inject({ method: 'POST', url: '/v7/team', headers: bearer(owner.token), payload: { name: `team ${randomBytes(3).toString('hex')}`, belongs_to__organization: owner.orgId } });
      expect(tm.statusCode, tm.body).toBe(201);
      return app.app.inject({ method: 'POST', url: '/v7/team_application_access', headers: bearer(owner.token), payload: { team: tm.json<{ id: number }>().id, grants_access_to__application: fleet, application_membership_role: operator } });
    };
    const invite = () => app.app.inject({ method: 'POST', url: '/v7/invitee__is_invited_to__application', headers: bearer(owner.token), payload: { invitee: `inv${randomBytes(3).toString('hex')}@example.com`, is_invited_to__application: fleet, roleName: 'operator' } });
    const deactivate = async () => {
      const [device] = await addDevices(app, fleet, 1);
      return app.app.inject({ method: 'PATCH', url: `/v7/device(${device})`, headers: bearer(owner.token), payload: { is_active: false } });
    };
    return { fleet, member, team, invite, deactivate };
  }

  it('refuses the operator role and deactivation on the free plan and allows them on a paid plan', async () => {
    const u = await signUp(t.app);
    const f = await fleetRoles(t, u);
    for (const call of [f.member, f.team, f.invite]) {
      const res = await call();
      expect([res.statusCode, res.json()]).toEqual([400, M.operatorNeedsPaidPlan]);
    }
    const d = await f.deactivate();
    expect([d.statusCode, d.json()]).toEqual([400, M.deactivationNeedsPaidPlan]);
    const developer = await t.app.inject({ method: 'POST', url: '/v7/invitee__is_invited_to__application', headers: bearer(u.token), payload: { invitee: 'dev-invite@example.com', is_invited_to__application: f.fleet, roleName: 'developer' } });
    expect(developer.statusCode).toBe(201);

    await upgrade(t, u);
    for (const call of [f.member, f.team, f.invite]) expect((await call()).statusCode).toBe(201);
    expect((await f.deactivate()).statusCode).toBe(200);
  });

  it('limits nothing while billing is off', async () => {
    const u = await signUp(off.app);
    const f = await fleetRoles(off, u);
    for (const call of [f.member, f.team, f.invite]) expect((await call()).statusCode).toBe(201);
    expect((await f.deactivate()).statusCode).toBe(200);
    await addDevices(off, f.fleet, 10);
    const type = (await off.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id;
    const res = await off.app.inject({ method: 'POST', url: '/v7/device', headers: bearer(u.token), payload: { belongs_to__application: f.fleet, is_of__device_type: type, uuid: randomBytes(16).toString('hex') } });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('stops the free plan at the free device allowance, through the data API and device registration', async () => {
    const u = await signUp(t.app);
    const fleet = await insertFleet(t.db, u, 'allowance');
    await addDevices(t, fleet, 9);
    const type = (await t.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id;
    const post = () => t.app.inject({ method: 'POST', url: '/v7/device', headers: bearer(u.token), payload: { belongs_to__application: fleet, is_of__device_type: type, uuid: randomBytes(16).toString('hex') } });
    expect((await post()).statusCode).toBe(201);
    const eleventh = await post();
    expect([eleventh.statusCode, eleventh.json()]).toEqual([400, M.freeAllowanceReached]);

    const key = await t.app.inject({ method: 'POST', url: `/api-key/application/${fleet}/provisioning`, headers: bearer(u.token), payload: {} });
    expect(key.statusCode, key.body).toBe(200);
    const register = () =>
      t.app.inject({ method: 'POST', url: '/device/register', headers: bearer(key.json<string>()), payload: { application: fleet, uuid: randomBytes(16).toString('hex'), device_type: 'raspberrypi3' } });
    const refused = await register();
    expect([refused.statusCode, refused.json()]).toEqual([400, M.freeAllowanceReached]);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device WHERE belongs_to__application = $1', [fleet])).rows[0]!.n).toBe(10);

    await upgrade(t, u);
    expect((await register()).statusCode).toBe(201);
    expect((await post()).statusCode).toBe(201);
  });

  it('counts a device moved in from another organization against the free allowance', async () => {
    const u = await signUp(t.app);
    const full = await insertFleet(t.db, u, 'fullfleet');
    await addDevices(t, full, 10);
    const org = await t.app.inject({ method: 'POST', url: '/v7/organization', headers: bearer(u.token), payload: { name: `second ${u.username}` } });
    expect(org.statusCode).toBe(201);
    expect(await active(t, org.json<{ id: number }>().id)).toMatchObject([{ code: 'free', origin: 'signup' }]);
    const elsewhere = await insertFleet(t.db, { ...u, orgId: org.json<{ id: number }>().id }, 'elsewhere');
    const [device] = await addDevices(t, elsewhere, 1);
    const move = await t.app.inject({ method: 'PATCH', url: `/v7/device(${device})`, headers: bearer(u.token), payload: { belongs_to__application: full } });
    expect([move.statusCode, move.json()]).toEqual([400, M.freeAllowanceReached]);
    const within = await t.app.inject({ method: 'PATCH', url: `/v7/device(${device})`, headers: bearer(u.token), payload: { belongs_to__application: elsewhere } });
    expect(within.statusCode).toBe(200);
  });

  it('tells issue 20 whether SAML is in the plan', async () => {
    const u = await signUp(t.app);
    expect(await planIncludes(t.db, true, u.orgId, 'saml')).toBe(false);
    expect(await planIncludes(t.db, false, u.orgId, 'saml')).toBe(true);
    await t.db.query(`UPDATE subscription SET is_for__plan = (SELECT id FROM plan WHERE billing_code = 'enterprise-v2') WHERE is_for__organization = $1 AND is_active`, [u.orgId]);
    expect(await planIncludes(t.db, true, u.orgId, 'saml')).toBe(true);
  });
});

describe('the admin catalogue editor', () => {
  it('lets platform administrators list and edit plans, and no one else', async () => {
    const admin = bearer((await signInStaff(t.app, t.db)).token);
    const list = await t.app.inject({ method: 'GET', url: '/admin/v1/billing/plans', headers: admin });
    expect(list.statusCode).toBe(200);
    const plans = list.json<{ id: number; billing_code: string; is_self_serve: boolean }[]>();
    const production = plans.find((p) => p.billing_code === 'production-v2')!;
    expect(production.is_self_serve).toBe(true);

    const edit = await t.app.inject({ method: 'PATCH', url: `/admin/v1/billing/plans/${production.id}`, headers: admin, payload: { monthly_price: 79900, title: 'Production+', is_valid_until__date: '2020-01-01T00:00:00.000Z' } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ monthly_price: 79900, title: 'Production+', is_self_serve: false });
    expect((await t.app.inject({ method: 'PATCH', url: `/admin/v1/billing/plans/${production.id}`, headers: admin, payload: { monthly_price: -1 } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PATCH', url: '/admin/v1/billing/plans/999999', headers: admin, payload: { title: 'x' } })).statusCode).toBe(404);

    // Expired: choosing it is now a contact-sales change.
    const u = await signUp(t.app);
    await addPaymentMethod(t, u.orgId);
    expect((await patchPlan(t, u, { tier: 'production-v2', annual: false })).json()).toBe(M.contactSales);

    const user = bearer(u.token);
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/billing/plans', headers: user })).statusCode).toBe(403);
    const refused = await t.app.inject({ method: 'PATCH', url: `/admin/v1/billing/plans/${production.id}`, headers: user, payload: { monthly_price: 1 } });
    expect(refused.statusCode).toBe(403);
    expect((await t.db.query<{ monthly_price: number }>('SELECT monthly_price FROM plan WHERE id = $1', [production.id])).rows[0]!.monthly_price).toBe(79900);
    await t.db.query(`UPDATE plan SET is_valid_until__date = NULL, title = 'Production', monthly_price = 89900 WHERE id = $1`, [production.id]);
  });
});

describe("the dashboard's catalogue query (web lib/organization-plan.ts)", () => {
  it("lets any member read the organization's subscription with its plan's features and add-on prices through pine", async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    const stranger = await signUp(t.app);
    await addOrganizationMember(t.db, member.userId, owner.orgId);
    const query = {
      $select: ['id'],
      $filter: { is_for__organization: owner.orgId, is_active: true },
      $expand: {
        is_for__plan: {
          $select: ['billing_code'],
          $expand: {
            plan_feature: { $select: ['quantity'], $expand: { feature: { $select: ['slug'] } } },
            plan_addon: { $select: ['base_price'], $expand: { feature: { $select: ['slug'] } } },
          },
        },
      },
    };
    const sdk = await sdkAs(member.token);
    const rows = (await sdk.pine.get({ resource: 'subscription', options: query } as never)) as unknown as {
      is_for__plan: { billing_code: string; plan_feature: { quantity: number; feature: { slug: string }[] }[]; plan_addon: { base_price: number; feature: { slug: string }[] }[] }[];
    }[];
    expect(rows).toHaveLength(1);
    const plan = rows[0]!.is_for__plan[0]!;
    expect(plan.billing_code).toBe('free');
    expect(plan.plan_feature.find((f) => f.feature[0]?.slug === 'device:microservices-v1')?.quantity).toBe(10);
    expect(plan.plan_addon.find((a) => a.feature[0]?.slug === 'member:administrator')?.base_price).toBe(4900);
    const other = await sdkAs(stranger.token);
    expect(await other.pine.get({ resource: 'subscription', options: query } as never)).toEqual([]);
  });
});
