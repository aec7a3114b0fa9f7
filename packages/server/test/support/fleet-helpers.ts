import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PoolDb } from '../../src/infra/db/db.js';
import { bearer, type SignedUpUser } from '../harness.js';

/**
 * Helpers of the device-core, provisioning-key and fleet-settings tests: fleets made through
 * the API (so each has its own actor), fleet roles through memberships, and releases written
 * as root (the release rules are tested elsewhere).
 */

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export function requester(app: FastifyInstance) {
  return (token: string | null, method: Method, url: string, payload?: object) =>
    app.inject({ method, url, headers: token === null ? {} : bearer(token), ...(payload ? { payload } : {}) });
}

export const hex = (bytes = 16) => randomBytes(bytes).toString('hex');

export async function deviceTypeId(db: PoolDb, slug: string): Promise<number> {
  return (await db.query<{ id: number }>('SELECT id FROM device_type WHERE slug = $1', [slug])).rows[0]!.id;
}

/** A fleet of `owner`'s personal organization, created through POST /v7/application. */
export async function createFleet(app: FastifyInstance, db: PoolDb, owner: SignedUpUser, name: string, deviceType = 'raspberrypi3', orgId = owner.orgId): Promise<number> {
  const res = await requester(app)(owner.token, 'POST', '/v7/application', {
    app_name: name,
    organization: orgId,
    is_for__device_type: await deviceTypeId(db, deviceType),
  });
  if (res.statusCode !== 201) throw new Error(`fleet create failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

/** Makes `user` a member of `owner`'s organization and gives them `role` on `fleetId`. */
export async function giveFleetRole(
  db: PoolDb,
  orgId: number,
  fleetId: number,
  user: SignedUpUser,
  role: 'observer' | 'operator' | 'developer' | 'administrator',
): Promise<void> {
  await db.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT $1, $2, id FROM organization_membership_role WHERE name = 'member'
     ON CONFLICT DO NOTHING`,
    [user.userId, orgId],
  );
  await db.query(
    `INSERT INTO user_application_membership ("user", is_member_of__application, application_membership_role)
     SELECT $1, $2, id FROM application_membership_role WHERE name = $3`,
    [user.userId, fleetId, role],
  );
}

export async function insertRelease(db: PoolDb, fleetId: number, status = 'success', commit = hex()): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO release (belongs_to__application, commit, status) VALUES ($1, $2, $3) RETURNING id',
    [fleetId, commit, status],
  );
  return rows[0]!.id;
}

/** Inserts a device as root (its own actor), for tests about other rules. */
export async function insertDevice(db: PoolDb, fleetId: number, deviceType: number, extra: Record<string, unknown> = {}): Promise<number> {
  const actor = (await db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
  const cols: Record<string, unknown> = {
    actor,
    uuid: hex(),
    device_name: `device-${hex(3)}`,
    belongs_to__application: fleetId,
    is_of__device_type: deviceType,
    ...extra,
  };
  const names = Object.keys(cols);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO device (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(cols),
  );
  return rows[0]!.id;
}

export async function row<T = Record<string, unknown>>(db: PoolDb, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await db.query(sql, params)).rows[0] as T | undefined;
}
