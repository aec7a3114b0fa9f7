import { model } from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import type { PoolDb } from '../../src/infra/db/db.js';
import { addOrganizationMember, bearer, signUp, type SignedUpUser } from '../harness.js';
import { insertDevice } from '../support/cloud-link.js';
import { createFleet, insertRelease } from '../support/fleet-helpers.js';
import { createReleaseImage, registryToken } from '../support/registry.js';
import type { FuzzWorld } from './request.js';

/**
 * The fuzzer's seeded world (docs/fuzzing.md): realistic actors so requests reach deep code —
 * a user with fleets and devices in two organizations (their own and one they administer),
 * that user's API key, device keys, anonymous callers — and an OTHER organization whose data
 * nobody fuzzing may change (checked by `otherOrganizationDigest` before and after).
 */

export interface SeededWorld {
  world: FuzzWorld;
  owner: SignedUpUser;
  other: SignedUpUser;
  otherFleets: number[];
}

async function orgFleets(app: FastifyInstance, db: PoolDb, owner: SignedUpUser, orgId: number, prefix: string, n: number) {
  const fleets: number[] = [];
  const devices: { uuid: string; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const fleet = await createFleet(app, db, owner, `${prefix}${i}`, 'raspberrypi3', orgId);
    fleets.push(fleet);
    await insertRelease(db, fleet);
    for (let d = 0; d < 2; d++) devices.push(await insertDevice(db, fleet));
  }
  return { fleets, devices };
}

export async function seedWorld(app: FastifyInstance, db: PoolDb, url: string): Promise<SeededWorld> {
  const owner = await signUp(app);
  const second = await signUp(app);
  await addOrganizationMember(db, owner.userId, second.orgId, 'administrator');
  const other = await signUp(app);
  const a = await orgFleets(app, db, owner, owner.orgId, 'fuzz-a', 2);
  const b = await orgFleets(app, db, owner, second.orgId, 'fuzz-b', 2);
  const o = await orgFleets(app, db, other, other.orgId, 'other', 2);
  const images = [await createReleaseImage(app, owner.token, a.fleets[0]!), await createReleaseImage(app, owner.token, b.fleets[0]!), await createReleaseImage(app, other.token, o.fleets[0]!)];
  for (const [token, fleet] of [[owner.token, a.fleets[0]!], [other.token, o.fleets[0]!]] as const) {
    await app.inject({ method: 'POST', url: '/v7/application_environment_variable', headers: bearer(token), payload: { application: fleet, name: 'FUZZ_VAR', value: 'v' } });
  }
  const keyRes = await app.inject({ method: 'POST', url: '/api-key/user/full', headers: bearer(owner.token), payload: { name: 'fuzz key' } });
  if (keyRes.statusCode !== 200) throw new Error(`API key: ${keyRes.statusCode} ${keyRes.body}`);
  const apiKey = keyRes.json<string>();
  const devices = [...a.devices, ...b.devices, ...o.devices];
  const ids: Record<string, number[]> = {};
  for (const name of Object.keys(model)) {
    try {
      const { rows } = await db.query<{ id: number }>(`SELECT id FROM "${name}" ORDER BY id DESC LIMIT 25`);
      ids[name] = [...rows.map((r) => r.id), 0, 999_999];
    } catch {
      ids[name] = [1, 0, 999_999];
    }
  }
  const registryTokens: string[] = [];
  for (const [username, password] of [[owner.username, owner.token], [owner.username, apiKey], [`d_${a.devices[0]!.uuid}`, a.devices[0]!.key]] as const) {
    const scopes = images.map((i) => `repository:${i.repository}:pull,push`);
    const t = await registryToken(url, { username, password }, scopes);
    if (t.status !== 200) throw new Error(`registry token: ${t.status} ${JSON.stringify(t.body)}`);
    registryTokens.push(t.token);
  }
  const fleetUuids = (await db.query<{ uuid: string }>('SELECT uuid FROM application WHERE id = ANY($1)', [[...a.fleets, ...b.fleets, ...o.fleets]])).rows.map((r) => r.uuid);
  return {
    owner,
    other,
    otherFleets: o.fleets,
    world: {
      actors: [
        { name: 'user (two organizations)', headers: bearer(owner.token) },
        { name: 'user (two organizations)', headers: bearer(owner.token) },
        { name: 'api key', headers: bearer(apiKey) },
        { name: 'device key', headers: bearer(a.devices[0]!.key) },
        { name: 'anonymous', headers: {} },
      ],
      ids,
      deviceUuids: devices.map((d) => d.uuid),
      // The other organization's devices are targets, never speakers: their own reports
      // would (rightly) change their rows.
      deviceKeys: [...a.devices, ...b.devices].map((d) => d.key).concat(o.devices.map(() => undefined) as never[]),
      fleetUuids,
      repositories: images.map((i) => i.repository),
      registryLogins: [`${owner.username}:${owner.token}`, `${owner.username}:${apiKey}`, `d_${a.devices[0]!.uuid}:${a.devices[0]!.key}`, `${other.username}:wrong`],
      registryTokens,
      host: new URL(url).host,
    },
  };
}

/**
 * A digest per table of every row of the other organization (the organization, its fleets
 * and every row pointing at them or at their devices and releases, its members). The
 * fuzzing actors hold no right there, so it must not move.
 */
export async function otherOrganizationDigest(db: PoolDb, other: SignedUpUser): Promise<Record<string, string>> {
  const scope: Record<string, string> = {
    organization: `SELECT ${other.orgId}`,
    application: `SELECT id FROM application WHERE organization = ${other.orgId}`,
  };
  scope.device = `SELECT id FROM device WHERE belongs_to__application IN (${scope.application})`;
  scope.release = `SELECT id FROM release WHERE belongs_to__application IN (${scope.application})`;
  scope.user = `SELECT ${other.userId}`;
  const out: Record<string, string> = {};
  for (const def of Object.values(model)) {
    const conditions: string[] = [];
    if (scope[def.name]) conditions.push(`id IN (${scope[def.name]})`);
    for (const f of def.fields) {
      if (f.type === 'ForeignKey' && f.references && scope[f.references] && !f.computed) conditions.push(`"${f.name}" IN (${scope[f.references]})`);
    }
    if (conditions.length === 0) continue;
    try {
      const { rows } = await db.query<{ n: string; h: string | null }>(
        `SELECT count(*)::text AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS h FROM "${def.name}" t WHERE ${conditions.join(' OR ')}`,
      );
      out[def.name] = `${rows[0]!.n}:${rows[0]!.h ?? ''}`;
    } catch {
      // A resource that is not a table of its own name (a view or a computed resource).
    }
  }
  return out;
}
