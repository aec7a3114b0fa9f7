import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { hashApiKey } from '../../infra/auth/api-keys.js';
import type { PoolDb } from '../../infra/db/db.js';
import { CUSTOM_PLAN_REFUSAL } from '@flotilla/model';
import { addOrganizationMember, bearer, buildTestApp, createTestDb, insertFleet, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { upsertBillingInfo } from '../billing/payments/payments.repository.js';

const PASSWORD = 'correct horse battery';
let offset = 0;
let app: FastifyInstance;
let db: PoolDb;
let drop: () => Promise<void>;
beforeAll(async () => {
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, clock: () => Date.now() + offset });
});
afterAll(async () => {
  await app.close();
  await drop();
});
beforeEach(() => {
  offset = 0;
});

/** An organization created by `owner` (its administrator) with `others` added in `role`. */
async function organizationWith(owner: SignedUpUser, name: string, others: SignedUpUser[], role: 'administrator' | 'member'): Promise<number> {
  const res = await app.inject({ method: 'POST', url: '/v7/organization', headers: bearer(owner.token), payload: { name } });
  expect(res.statusCode).toBe(201);
  const orgId = res.json<{ id: number }>().id;
  for (const o of others) await addOrganizationMember(db, o.userId, orgId, role);
  return orgId;
}

const preflight = (token: string) => app.inject({ method: 'GET', url: '/user/v1/account-deletion/preflight', headers: bearer(token) });
const deleteAccount = (token: string, password = PASSWORD) =>
  app.inject({ method: 'DELETE', url: '/user/v1/account', headers: bearer(token), payload: { password } });
const userExists = async (id: number) => (await db.query('SELECT 1 FROM "user" WHERE id = $1', [id])).rowCount === 1;

describe('account deletion preflight', () => {
  it('lists the organizations the user alone administers with plan codes and fleet and device counts', async () => {
    const u = await signUp(app);
    const peer = await signUp(app);
    const fleet = await insertFleet(db, u, 'doomedfleet');
    const { rows } = await db.query<{ actor: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id AS actor');
    await db.query(
      `INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type)
       SELECT $1, md5(random()::text), 'dev', $2, is_for__device_type FROM application WHERE id = $2`,
      [rows[0]!.actor, fleet],
    );
    const shared = await organizationWith(u, `shared ${u.username}`, [peer], 'member');
    await organizationWith(u, `coadmin ${u.username}`, [peer], 'administrator');

    const res = await preflight(u.token);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ singleAdminOrgs: { id: number; otherMembers: number }[]; billingPlanCodesByOrg: Record<string, string>; applicationCount: number; deviceCount: number }>();
    expect(body.singleAdminOrgs.map((o) => [o.id, o.otherMembers]).sort()).toEqual([[u.orgId, 0], [shared, 1]].sort());
    expect(body.billingPlanCodesByOrg).toEqual({ [String(u.orgId)]: 'free', [String(shared)]: 'free' });
    expect(body.applicationCount).toBe(1);
    expect(body.deviceCount).toBe(1);
  });

  it('needs a signed-in user', async () => {
    const res = await app.inject({ method: 'GET', url: '/user/v1/account-deletion/preflight' });
    expect(res.statusCode).toBe(401);
  });
});

describe('DELETE /user/v1/account', () => {
  it('refuses without a recent authentication, with a wrong password or without a password set, deleting nothing', async () => {
    const u = await signUp(app);
    offset = 21 * 60_000;
    const late = await deleteAccount(u.token);
    expect(late.statusCode).toBe(401);
    expect(late.json()).toBe('You have to log in');
    offset = 0;
    const wrong = await deleteAccount(u.token, 'wrong password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toBe('invalid_password');
    await db.query('UPDATE "user" SET password = NULL, has_password_set = false WHERE id = $1', [u.userId]);
    const none = await deleteAccount(u.token, 'anything at all');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toBe('password_not_set');
    expect(await userExists(u.userId)).toBe(true);
  });

  it('refuses while the user is the only administrator of an organization that has other members', async () => {
    const u = await signUp(app);
    const peer = await signUp(app);
    const shared = await organizationWith(u, `keep ${u.username}`, [peer], 'member');
    const res = await deleteAccount(u.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('cannot_delete_last_organization_admin');
    expect(await userExists(u.userId)).toBe(true);
    const { rowCount } = await db.query('SELECT 1 FROM organization WHERE id = ANY($1::int[])', [[shared, u.orgId]]);
    expect(rowCount).toBe(2);
  });

  it('after the wizard deleted the shared organization, deletes the account, its own organization, fleets and keys', async () => {
    const u = await signUp(app);
    const peer = await signUp(app);
    const shared = await organizationWith(u, `gone ${u.username}`, [peer], 'member');
    const coadmin = await organizationWith(u, `stays ${u.username}`, [peer], 'administrator');
    const fleet = await insertFleet(db, u, 'personalfleet');
    const key = `deletion-test-key-${u.userId}`;
    await db.query('INSERT INTO api_key (key, name, is_of__actor) VALUES ($1, $2, $3)', [hashApiKey(key), 'cli', u.actorId]);

    // The wizard's "delete those organizations" step.
    expect((await app.inject({ method: 'DELETE', url: `/v7/organization(${shared})`, headers: bearer(u.token) })).statusCode).toBe(200);
    const res = await deleteAccount(u.token);
    expect(res.statusCode).toBe(200);

    expect(await userExists(u.userId)).toBe(false);
    const orgs = await db.query<{ id: number }>('SELECT id FROM organization WHERE id = ANY($1::int[])', [[shared, coadmin, u.orgId]]);
    expect(orgs.rows.map((r) => r.id)).toEqual([coadmin]);
    expect((await db.query('SELECT 1 FROM application WHERE id = $1', [fleet])).rowCount).toBe(0);
    expect((await db.query('SELECT 1 FROM actor WHERE id = $1', [u.actorId])).rowCount).toBe(0);
    // The session, the API key and the password all stop working.
    expect((await app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(u.token) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(key) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/login_', payload: { username: u.email, password: PASSWORD } })).statusCode).toBe(401);
    // The peer keeps the organization they co-administer.
    expect((await app.inject({ method: 'GET', url: `/v7/organization(${coadmin})`, headers: bearer(peer.token) })).json().d).toHaveLength(1);
  });
});

describe('account deletion with billing on (issue 18)', () => {
  it('shows real plan codes, refuses custom plans, and cancels the subscriptions of the organizations it deletes', async () => {
    const b = await buildTestApp({ billing: { enabled: true } });
    try {
      const u = await signUp(b.app);
      await upsertBillingInfo(b.db, u.orgId, 'manual', { type: 'manual' });
      const up = await b.app.inject({ method: 'PATCH', url: `/billing/v1/account/${u.orgId}/plan`, headers: bearer(u.token), payload: { tier: 'pilot-v2', annual: false } });
      expect(up.statusCode, up.body).toBe(200);
      const pre = await b.app.inject({ method: 'GET', url: '/user/v1/account-deletion/preflight', headers: bearer(u.token) });
      expect(pre.json<{ billingPlanCodesByOrg: Record<string, string> }>().billingPlanCodesByOrg).toEqual({ [String(u.orgId)]: 'pilot-v2' });

      // A custom plan (negotiated by sales) refuses the deletion, deleting nothing.
      const custom = await b.db.query<{ id: number }>(`INSERT INTO plan (title, billing_code) VALUES ('Custom', 'custom-acme') RETURNING id`);
      await b.db.query('UPDATE subscription SET is_for__plan = $2 WHERE is_for__organization = $1 AND is_active', [u.orgId, custom.rows[0]!.id]);
      const refused = await b.app.inject({ method: 'DELETE', url: '/user/v1/account', headers: bearer(u.token), payload: { password: PASSWORD } });
      expect([refused.statusCode, refused.json()]).toEqual([400, CUSTOM_PLAN_REFUSAL]);
      expect((await b.db.query<{ n: number }>('SELECT count(*)::int AS n FROM subscription WHERE is_for__organization = $1 AND is_active', [u.orgId])).rows[0]!.n).toBe(1);

      // Back on pilot: the subscription is cancelled and goes with the organization.
      await b.db.query(`UPDATE subscription SET is_for__plan = (SELECT id FROM plan WHERE billing_code = 'pilot-v2') WHERE is_for__organization = $1 AND is_active`, [u.orgId]);
      const cancelled: number[] = [];
      const trigger = `subscription_cancel_probe_${u.orgId}`;
      // Record the cancellation (is_active turned false before the organization's rows are deleted).
      await b.db.query(`CREATE TABLE ${trigger} (org int)`);
      await b.db.query(
        `CREATE FUNCTION ${trigger}_fn() RETURNS trigger AS $$ BEGIN IF OLD.is_active AND NOT NEW.is_active THEN INSERT INTO ${trigger} VALUES (NEW.is_for__organization); END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
      );
      await b.db.query(`CREATE TRIGGER ${trigger}_t AFTER UPDATE ON subscription FOR EACH ROW EXECUTE FUNCTION ${trigger}_fn()`);
      const res = await b.app.inject({ method: 'DELETE', url: '/user/v1/account', headers: bearer(u.token), payload: { password: PASSWORD } });
      expect(res.statusCode, res.body).toBe(200);
      cancelled.push(...(await b.db.query<{ org: number }>(`SELECT org FROM ${trigger}`)).rows.map((r) => r.org));
      expect(cancelled).toEqual([u.orgId]);
      expect((await b.db.query('SELECT 1 FROM subscription WHERE is_for__organization = $1', [u.orgId])).rowCount).toBe(0);
    } finally {
      await b.close();
    }
  });
});
