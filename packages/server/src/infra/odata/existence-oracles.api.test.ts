import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { insertDevice } from '../../../test/support/cloud-link.js';
import { createFleet } from '../../../test/support/fleet-helpers.js';

/**
 * Issue 11, 1f and 1g: a write must not tell a stranger whether a row of another tenant
 * exists. POSTs are refused before any insert when the parent is not the caller's, so
 * "name taken" (409) and "not yours" (401) and "no such parent" cannot be told apart; and
 * organization memberships accept only people who already share an organization with the
 * administrator adding them (others join by invitation), so walking user ids reveals nothing.
 */

let t: TestApp;
let a: SignedUpUser;
let b: SignedUpUser;
const NONEXISTENT = 2_000_000_000;
/** A name that follows the same naming rules as `taken` and is free. */
const free = (taken: string) => `${taken}${randomBytes(4).readUInt32BE()}`;

const req = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const id = async (text: string, values: unknown[] = []) => (await t.db.query<{ id: number }>(text, values)).rows[0]!.id;

async function post(user: SignedUpUser, url: string, body: object): Promise<number> {
  const res = await req('POST', url, user.token, body);
  expect(res.statusCode, `${url} ${res.body}`).toBe(201);
  return res.json().id;
}

/** A's rows: each resource with a name unique per parent, its parent field, parent and taken name. */
let cases: { resource: string; parent: string; parentId: number; body: (name: string) => Record<string, unknown>; taken: string }[];
let fleetA: number;

beforeAll(async () => {
  t = await buildTestApp();
  a = await signUp(t.app);
  b = await signUp(t.app);
  fleetA = await createFleet(t.app, t.db, a, 'SecretFleet');
  const release = await post(a, '/v7/release', {
    belongs_to__application: fleetA,
    commit: randomBytes(16).toString('hex'),
    status: 'success',
    source: 'cloud',
    composition: {},
    start_timestamp: new Date().toISOString(),
  });
  const service = await post(a, '/v7/service', { application: fleetA, service_name: 'main' });
  const device = (await insertDevice(t.db, fleetA)).id;
  const install = await id('INSERT INTO service_install (device, installs__service) VALUES ($1, $2) RETURNING id', [device, service]);
  const tag = (parent: string) => (name: string) => ({ [parent]: 0, tag_key: name, value: 'v' });
  const variable = (parent: string) => (name: string) => ({ [parent]: 0, name, value: 'v' });
  cases = [
    { resource: 'application_tag', parent: 'application', parentId: fleetA, body: tag('application'), taken: 'secret.tag' },
    { resource: 'release_tag', parent: 'release', parentId: release, body: tag('release'), taken: 'secret.tag' },
    { resource: 'device_tag', parent: 'device', parentId: device, body: tag('device'), taken: 'secret.tag' },
    { resource: 'application_environment_variable', parent: 'application', parentId: fleetA, body: variable('application'), taken: 'SECRET_VAR' },
    { resource: 'application_config_variable', parent: 'application', parentId: fleetA, body: variable('application'), taken: 'BALENA_SECRET' },
    { resource: 'build_environment_variable', parent: 'application', parentId: fleetA, body: variable('application'), taken: 'SECRET_VAR' },
    { resource: 'service_environment_variable', parent: 'service', parentId: service, body: variable('service'), taken: 'SECRET_VAR' },
    { resource: 'device_environment_variable', parent: 'device', parentId: device, body: variable('device'), taken: 'SECRET_VAR' },
    { resource: 'device_config_variable', parent: 'device', parentId: device, body: variable('device'), taken: 'BALENA_SECRET' },
    { resource: 'device_service_environment_variable', parent: 'service_install', parentId: install, body: variable('service_install'), taken: 'SECRET_VAR' },
    { resource: 'team', parent: 'belongs_to__organization', parentId: a.orgId, body: (name) => ({ belongs_to__organization: 0, name }), taken: 'Secret team' },
    { resource: 'application', parent: 'organization', parentId: a.orgId, body: (name) => ({ organization: 0, app_name: name, is_for__device_type: 1 }), taken: 'SecretFleet' },
    { resource: 'service', parent: 'application', parentId: fleetA, body: (name) => ({ application: 0, service_name: name }), taken: 'main' },
  ];
  for (const c of cases) {
    if (c.resource === 'application' || c.resource === 'service') continue; // made above
    await post(a, `/v7/${c.resource}`, { ...c.body(c.taken), [c.parent]: c.parentId });
  }
});
afterAll(async () => {
  await t?.close();
});

const count = async (resource: string) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${resource}"`)).rows[0]!.n;

describe("POST into another tenant's rows (1f)", () => {
  it('answers alike whether the name is taken, free, or the parent does not exist', async () => {
    for (const c of cases) {
      const before = await count(c.resource);
      const answers = [];
      for (const [parentId, name] of [
        [c.parentId, c.taken],
        [c.parentId, free(c.taken)],
        [NONEXISTENT, c.taken],
      ] as const) {
        const res = await req('POST', `/v7/${c.resource}`, b.token, { ...c.body(name), [c.parent]: parentId });
        answers.push(`${res.statusCode} ${res.body}`);
      }
      expect(answers, c.resource).toEqual(['401 "Unauthorized"', '401 "Unauthorized"', '401 "Unauthorized"']);
      expect(await count(c.resource), c.resource).toBe(before);
    }
  });

  it('checks the create rule before inserting where the parent is readable (a public fleet)', async () => {
    await t.db.query('UPDATE application SET is_public = true WHERE id = $1', [fleetA]);
    try {
      expect((await req('GET', `/v7/application(${fleetA})?$select=id`, b.token)).json().d).toEqual([{ id: fleetA }]);
      for (const c of cases.filter((x) => x.parent === 'application')) {
        const before = await count(c.resource);
        const taken = await req('POST', `/v7/${c.resource}`, b.token, { ...c.body(c.taken), [c.parent]: fleetA });
        const freeName = await req('POST', `/v7/${c.resource}`, b.token, { ...c.body(free(c.taken)), [c.parent]: fleetA });
        expect([taken.statusCode, taken.body], c.resource).toEqual([401, '"Unauthorized"']);
        expect([freeName.statusCode, freeName.body], c.resource).toEqual([401, '"Unauthorized"']);
        expect(await count(c.resource), c.resource).toBe(before);
      }
    } finally {
      await t.db.query('UPDATE application SET is_public = false WHERE id = $1', [fleetA]);
    }
  });
});

describe('organization memberships do not enumerate accounts (1g)', () => {
  const memberRole = () => id(`SELECT id FROM organization_membership_role WHERE name = 'member'`);

  it('refuses every user id B shares no organization with exactly as an id nobody has', async () => {
    const role = await memberRole();
    const before = await t.db.query('SELECT * FROM organization_membership ORDER BY id');
    const maxId = await id('SELECT max(id) AS id FROM "user"');
    const answers = new Set<string>();
    for (let userId = 1; userId <= maxId + 3; userId++) {
      if (userId === b.userId) continue;
      const res = await req('POST', '/v7/organization_membership', b.token, { user: userId, is_member_of__organization: b.orgId, organization_membership_role: role });
      answers.add(`${res.statusCode} ${res.body}`);
    }
    expect([...answers]).toEqual(['401 "Unauthorized"']);
    expect((await t.db.query('SELECT * FROM organization_membership ORDER BY id')).rows).toEqual(before.rows);
    // Nothing about A became readable.
    expect((await req('GET', `/v7/user(${a.userId})?$select=username`, b.token)).json()).toEqual({ d: [] });
  });

  it('answers a username of someone B shares nothing with as one nobody has', async () => {
    const role = await memberRole();
    for (const username of [a.username, 'nobody_has_this_name']) {
      const res = await req('POST', '/v7/organization_membership', b.token, { username, is_member_of__organization: b.orgId, organization_membership_role: role });
      expect([res.statusCode, res.json()]).toEqual([400, `No user with the username '${username}'`]);
    }
    expect((await t.db.query('SELECT 1 FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2', [a.userId, b.orgId])).rowCount).toBe(0);
  });

  it('adds, by id or by username, people who already share an organization with the administrator', async () => {
    const role = await memberRole();
    const [c, d] = [await signUp(t.app), await signUp(t.app)];
    const shared = await post(b, '/v7/organization', { name: `Shared ${b.userId}` });
    await addOrganizationMember(t.db, c.userId, shared);
    await addOrganizationMember(t.db, d.userId, shared);
    expect((await req('POST', '/v7/organization_membership', b.token, { user: c.userId, is_member_of__organization: b.orgId, organization_membership_role: role })).statusCode).toBe(201);
    expect((await req('POST', '/v7/organization_membership', b.token, { username: d.username, is_member_of__organization: b.orgId, organization_membership_role: role })).statusCode).toBe(201);
  });
});
