import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { getSdk } from 'balena-sdk';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PoolDb } from '../src/infra/db/db.js';
import { buildApp, type AppOptions } from '../src/app.js';
import { createUser } from '../src/features/users/user.service.js';

const TEMPLATE_DB = 'flotilla_template';
export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';

function urlFor(database: string): string {
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${database}`;
  return url.toString();
}

/** A fresh database cloned from the migrated, seeded template (`empty`: one with no table at all). */
export async function createTestDb(options: { empty?: boolean } = {}): Promise<{ db: PoolDb; url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${options.empty ? 'template0' : TEMPLATE_DB}`);
      break;
    } catch (err) {
      // Two files cloning the template at the same instant: wait and retry.
      if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = urlFor(name);
  const db = new PoolDb(url, { max: 10 });
  return {
    db,
    url,
    async drop() {
      await db.end();
      const c = new pg.Client({ connectionString: inject('pgAdminUrl') });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: PoolDb;
  url: string;
  close(): Promise<void>;
}

/** The whole server (no dashboard) on a fresh database, for `inject` or real HTTP. */
/** An app on a fresh database; `options` adds settings (e.g. `{ billing: { enabled: true } }`, a clock). */
export async function buildTestApp(options: Partial<Omit<AppOptions, 'db' | 'jwtSecret'>> = {}): Promise<TestApp> {
  const { db, url, drop } = await createTestDb();
  const app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, ...options });
  return {
    app,
    db,
    url,
    async close() {
      await app.close();
      await drop();
    },
  };
}

export interface SignedUpUser {
  token: string;
  userId: number;
  actorId: number;
  username: string;
  email: string;
  orgId: number;
}

export interface StaffUser {
  token: string;
  userId: number;
  username: string;
  email: string;
}

/** A platform staff member (administrator by default, or support agent), signed in through `POST /login_`. */
export async function signInStaff(
  app: FastifyInstance,
  db: PoolDb,
  platformRole: 'administrator' | 'support_agent' = 'administrator',
  email = `staff_${process.pid}_${randomBytes(4).toString('hex')}@example.com`,
): Promise<StaffUser> {
  const password = 'staff-password-123';
  const user = await createUser(db, { email, password, platformRole, isVerified: true });
  const res = await app.inject({ method: 'POST', url: '/login_', payload: { username: email, password } });
  if (res.statusCode !== 200) throw new Error(`staff sign-in failed: ${res.statusCode} ${res.body}`);
  return { token: res.body, userId: user.id, username: user.username, email };
}

let counter = 0;
/** Registers a user through the real endpoint; returns their token and personal organization. */
export async function signUp(app: FastifyInstance, email?: string, password = 'correct horse battery'): Promise<SignedUpUser> {
  const address = email ?? `user${process.pid}_${++counter}_${randomBytes(3).toString('hex')}@example.com`;
  const res = await app.inject({ method: 'POST', url: '/user/register', payload: { email: address, password } });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const token = res.body;
  const who = await app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: { authorization: `Bearer ${token}` } });
  const me = who.json<{ id: number; actorTypeId: number; username: string; email: string }>();
  const org = await app.inject({
    method: 'GET',
    url: `/v7/organization?$select=id&$filter=handle eq '${me.username}'`,
    headers: { authorization: `Bearer ${token}` },
  });
  const orgId = org.json<{ d: { id: number }[] }>().d[0]?.id;
  if (orgId === undefined) throw new Error(`personal organization missing: ${org.body}`);
  return { token, userId: me.actorTypeId, actorId: me.id, username: me.username, email: me.email, orgId };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Inserts a fleet row directly (server-maintained actor, slug and uuid filled in), for tests
 * that must not depend on the application business rules.
 */
export async function insertFleet(
  db: PoolDb,
  owner: SignedUpUser,
  appName: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  // Each fleet is its own actor (its provisioning keys belong to it), as POST /v7/application makes it.
  const actor = (await db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
  const cols: Record<string, unknown> = {
    actor,
    app_name: appName,
    slug: `${owner.username}/${appName}`.toLowerCase(),
    uuid: randomBytes(16).toString('hex'),
    organization: owner.orgId,
    is_for__device_type: (await db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id,
    ...extra,
  };
  const names = Object.keys(cols);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO application (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(cols),
  );
  return rows[0]!.id;
}

/** A balena-sdk client for a server the test started with `app.listen` (token kept in memory). */
export function sdkClient(apiUrl: string): ReturnType<typeof getSdk> {
  return getSdk({ apiUrl, dataDirectory: false, isBrowser: false });
}

/**
 * Makes `userId` a member of organization `orgId` directly, to arrange a test. Through the
 * API a person joins by invitation, or by username when they already share an organization
 * with the administrator adding them (issue 11, 1g); those paths have their own tests.
 */
export async function addOrganizationMember(db: PoolDb, userId: number, orgId: number, role: 'member' | 'administrator' = 'member'): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT $1, $2, id FROM organization_membership_role WHERE name = $3 RETURNING id`,
    [userId, orgId, role],
  );
  if (!rows[0]) throw new Error(`no organization role '${role}'`);
  return rows[0].id;
}

/**
 * Removes the platform's public host OS catalogue (issue 17: fleets of the `balena_os`
 * organization, readable by everyone) from a test's own database, for engine tests that
 * compare every application a caller can read against the few the test made.
 */
export async function removeOsCatalogue(db: PoolDb): Promise<void> {
  await db.query(`DELETE FROM application WHERE organization = (SELECT id FROM organization WHERE handle = 'balena_os')`);
}
