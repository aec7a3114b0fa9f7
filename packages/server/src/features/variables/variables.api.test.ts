import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VARIABLE_MESSAGES as M } from '@flotilla/model';
import { DEVICE_STATE_CHANGED, type DeviceStateChanged } from '../device-api/state-changes.js';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Variables on the server (issue 5): the name rules and their messages per table, the
// duplicate answer the SDK's upsert relies on, service checks, table rights per fleet
// role, isolation between organizations, and the device-state announcement after commit.
let t: TestApp;
let owner: SignedUpUser;
let outsider: SignedUpUser;
let dt: number;
let fleetId: number;
let deviceId: number;
let serviceId: number;
let serviceInstallId: number;
const roleUsers: Record<'observer' | 'operator' | 'developer', SignedUpUser> = {} as never;
const announced: DeviceStateChanged[] = [];

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const req = (token: string, method: Method, url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const hex = (n = 4) => randomBytes(n).toString('hex');

async function fleet(by = owner): Promise<number> {
  const res = await req(by.token, 'POST', '/v7/application', { app_name: `Fleet${hex()}`, organization: by.orgId, is_for__device_type: dt });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function device(appId: number, by = owner): Promise<number> {
  const res = await req(by.token, 'POST', '/v7/device', { uuid: hex(16), belongs_to__application: appId, is_of__device_type: dt });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function service(appId: number, by = owner): Promise<number> {
  const res = await req(by.token, 'POST', '/v7/service', { application: appId, service_name: `svc${hex()}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Service installs are written by the device API only; the tests insert them directly. */
async function serviceInstall(device: number, service: number): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>('INSERT INTO service_install (device, installs__service) VALUES ($1, $2) RETURNING id', [device, service]);
  return rows[0]!.id;
}

const count = async (table: string) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

/** Waits until the bus has delivered `n` announcements in all, then returns them. */
async function announcements(n: number): Promise<DeviceStateChanged[]> {
  await vi.waitFor(() => expect(announced.length).toBeGreaterThanOrEqual(n));
  return announced.slice();
}

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.bus.subscribe(DEVICE_STATE_CHANGED, (m) => announced.push(m as DeviceStateChanged));
  dt = (await t.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id;
  owner = await signUp(t.app);
  outsider = await signUp(t.app);
  fleetId = await fleet();
  deviceId = await device(fleetId);
  serviceId = await service(fleetId);
  serviceInstallId = await serviceInstall(deviceId, serviceId);
  const roles = Object.fromEntries(
    (await t.db.query<{ id: number; name: string }>('SELECT id, name FROM application_membership_role')).rows.map((r) => [r.name, r.id]),
  );
  const memberRole = (await t.db.query<{ id: number }>(`SELECT id FROM organization_membership_role WHERE name = 'member'`)).rows[0]!.id;
  for (const role of ['observer', 'operator', 'developer'] as const) {
    const u = await signUp(t.app);
    await t.db.query('INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role) VALUES ($1, $2, $3)', [u.userId, owner.orgId, memberRole]);
    await t.db.query('INSERT INTO user_application_membership ("user", is_member_of__application, application_membership_role) VALUES ($1, $2, $3)', [u.userId, fleetId, roles[role]]);
    roleUsers[role] = u;
  }
});
afterAll(async () => {
  await t?.close();
});

/** Each variable table with a parent of the test world and the kind of its names. */
const TABLES = () =>
  [
    { table: 'application_environment_variable', parent: { application: fleetId }, kind: 'environment' },
    { table: 'build_environment_variable', parent: { application: fleetId }, kind: 'environment' },
    { table: 'service_environment_variable', parent: { service: serviceId }, kind: 'environment' },
    { table: 'device_environment_variable', parent: { device: deviceId }, kind: 'environment' },
    { table: 'device_service_environment_variable', parent: { service_install: serviceInstallId }, kind: 'environment' },
    { table: 'application_config_variable', parent: { application: fleetId }, kind: 'config' },
    { table: 'device_config_variable', parent: { device: deviceId }, kind: 'config' },
  ] as const;

describe('variable names', () => {
  it('accepts valid names on every table and answers with the entity', async () => {
    for (const { table, parent, kind } of TABLES()) {
      const name = kind === 'config' ? `BALENA_CUSTOM_${hex()}` : `MY_VAR_${hex()}`;
      const res = await req(owner.token, 'POST', `/v7/${table}`, { ...parent, name, value: 'v' });
      expect(res.statusCode, `${table}: ${res.body}`).toBe(201);
      expect(res.json()).toMatchObject({ name, value: 'v' });
    }
  });

  it('rejects environment names that do not start with a letter or hold other characters', async () => {
    for (const { table, parent, kind } of TABLES()) {
      if (kind !== 'environment') continue;
      for (const name of ['1ABC', 'MY-VAR', 'A:B']) {
        const res = await req(owner.token, 'POST', `/v7/${table}`, { ...parent, name, value: 'v' });
        expect(res.statusCode, `${table} ${name}`).toBe(400);
        expect(res.json()).toBe(M.invalidEnvironmentName);
      }
    }
  });

  it('allows a colon in configuration names but nothing else', async () => {
    const ok = await req(owner.token, 'POST', '/v7/device_config_variable', { device: deviceId, name: `BALENA_A:${hex()}`, value: '1' });
    expect(ok.statusCode, ok.body).toBe(201);
    const bad = await req(owner.token, 'POST', '/v7/application_config_variable', { application: fleetId, name: 'BALENA-X', value: '1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toBe('Configuration variables should start with a letter and only contain letters, digits, underscores or a colon.');
  });

  it('rejects reserved names on every table', async () => {
    for (const { table, parent } of TABLES()) {
      for (const name of ['RESIN', 'BALENA', 'BALENA_API_KEY', 'RESIN_SUPERVISOR_ADDRESS']) {
        const res = await req(owner.token, 'POST', `/v7/${table}`, { ...parent, name, value: 'v' });
        expect(res.statusCode, `${table} ${name}`).toBe(400);
        expect(res.json()).toBe('This environment variable is reserved and cannot be used.');
      }
    }
  });

  it('keeps reserved namespaces and whitelisted configuration names off environment tables', async () => {
    for (const { table, parent, kind } of TABLES()) {
      if (kind !== 'environment') continue;
      const ns = await req(owner.token, 'POST', `/v7/${table}`, { ...parent, name: 'BALENA_MY_THING', value: 'v' });
      expect(ns.statusCode, table).toBe(400);
      expect(ns.json()).toBe(
        'Variables beginning with RESIN_, BALENA_ configure OS features. They must be named as per the documentation and managed on the Configuration page.',
      );
      const cfg = await req(owner.token, 'POST', `/v7/${table}`, { ...parent, name: 'RESIN_SUPERVISOR_POLL_INTERVAL', value: '60000' });
      expect(cfg.statusCode, table).toBe(400);
      expect(cfg.json()).toBe('Configuration variables are managed through the Configuration page.');
    }
  });

  it('requires configuration names outside the whitelist to be in a reserved namespace', async () => {
    const bad = await req(owner.token, 'POST', '/v7/application_config_variable', { application: fleetId, name: 'POLL_INTERVAL', value: '1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toBe(M.configOutsideNamespace);
    const whitelisted = await req(owner.token, 'POST', '/v7/application_config_variable', { application: fleetId, name: 'RESIN_SUPERVISOR_POLL_INTERVAL', value: '60000' });
    expect(whitelisted.statusCode, whitelisted.body).toBe(201);
  });

  it('requires a name', async () => {
    for (const body of [{ value: 'v' }, { name: '', value: 'v' }, { name: '  ', value: 'v' }]) {
      const res = await req(owner.token, 'POST', '/v7/application_environment_variable', { application: fleetId, ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toBe('A variable name cannot be empty.');
    }
  });

  it('checks a new name on rename and leaves the row unchanged when refusing', async () => {
    const name = `RENAME_ME_${hex()}`;
    const created = await req(owner.token, 'POST', '/v7/device_environment_variable', { device: deviceId, name, value: 'v' });
    const id = created.json().id as number;
    const bad = await req(owner.token, 'PATCH', `/v7/device_environment_variable(${id})`, { name: 'BALENA_SNEAKY' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toBe(M.reservedNamespace);
    const good = await req(owner.token, 'PATCH', `/v7/device_environment_variable(${id})`, { name: `RENAMED_${hex()}`, value: 'w' });
    expect(good.statusCode, good.body).toBe(200);
    const row = (await t.db.query<{ name: string; value: string }>('SELECT name, value FROM device_environment_variable WHERE id = $1', [id])).rows[0]!;
    expect(row.name).toMatch(/^RENAMED_/);
    expect(row.value).toBe('w');
  });

  it('stores nothing when a name is refused', async () => {
    const before = await count('application_environment_variable');
    const res = await req(owner.token, 'POST', '/v7/application_environment_variable', { application: fleetId, name: 'RESIN_FOO', value: 'v' });
    expect(res.statusCode).toBe(400);
    expect(await count('application_environment_variable')).toBe(before);
  });
});

describe('duplicates and upserts', () => {
  it('answers a duplicate (parent, name) with 409 Unique key constraint violated, then a PATCH by filter updates it', async () => {
    const name = `DUP_${hex()}`;
    expect((await req(owner.token, 'POST', '/v7/application_environment_variable', { application: fleetId, name, value: 'one' })).statusCode).toBe(201);
    const dup = await req(owner.token, 'POST', '/v7/application_environment_variable', { application: fleetId, name, value: 'two' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toBe('Unique key constraint violated');
    const patch = await req(owner.token, 'PATCH', `/v7/application_environment_variable?$filter=application eq ${fleetId} and name eq '${name}'`, { value: 'two' });
    expect(patch.statusCode).toBe(200);
    const got = await req(owner.token, 'GET', `/v7/application_environment_variable?$select=value&$filter=application eq ${fleetId} and name eq '${name}'`);
    expect(got.json().d).toEqual([{ value: 'two' }]);
  });

  it('lets the same name exist under different parents', async () => {
    const name = `SHARED_${hex()}`;
    const other = await device(fleetId);
    for (const d of [deviceId, other]) {
      expect((await req(owner.token, 'POST', '/v7/device_environment_variable', { device: d, name, value: String(d) })).statusCode).toBe(201);
    }
  });
});

describe('service-scoped variables', () => {
  it('refuses a service that does not exist like one the caller cannot read (issue 11)', async () => {
    const res = await req(owner.token, 'POST', '/v7/service_environment_variable', { service: 2_000_000_000, name: 'A', value: 'v' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toBe('Unauthorized');
    const override = await req(owner.token, 'POST', '/v7/device_service_environment_variable', { service_install: 2_000_000_000, name: 'A', value: 'v' });
    expect(override.statusCode).toBe(401);
    expect(override.json()).toBe('Unauthorized');
  });

  it("answers 'Service not found' when the service is not of the device's fleet, and stores nothing", async () => {
    const otherFleet = await fleet();
    const stale = await serviceInstall(deviceId, await service(otherFleet));
    const before = await count('device_service_environment_variable');
    const res = await req(owner.token, 'POST', '/v7/device_service_environment_variable', { service_install: stale, name: `X_${hex()}`, value: 'v' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('Service not found');
    expect(await count('device_service_environment_variable')).toBe(before);
  });
});

describe('table rights per fleet role', () => {
  const post = (u: SignedUpUser, table: string, parent: object) => req(u.token, 'POST', `/v7/${table}`, { ...parent, name: `R_${hex()}`, value: 'v' });

  it('lets observers read but not write', async () => {
    const name = `SEEN_${hex()}`;
    await req(owner.token, 'POST', '/v7/application_environment_variable', { application: fleetId, name, value: 'v' });
    const read = await req(roleUsers.observer.token, 'GET', `/v7/application_environment_variable?$select=name&$filter=name eq '${name}'`);
    expect(read.json().d).toEqual([{ name }]);
    expect((await post(roleUsers.observer, 'application_environment_variable', { application: fleetId })).statusCode).toBe(401);
    expect((await post(roleUsers.observer, 'device_environment_variable', { device: deviceId })).statusCode).toBe(401);
  });

  it('lets operators write device variables and overrides, not fleet or service variables', async () => {
    const op = roleUsers.operator;
    expect((await post(op, 'device_environment_variable', { device: deviceId })).statusCode).toBe(201);
    expect((await post(op, 'device_service_environment_variable', { service_install: serviceInstallId })).statusCode).toBe(201);
    const cfg = await req(op.token, 'POST', '/v7/device_config_variable', { device: deviceId, name: `BALENA_OP_${hex()}`, value: '1' });
    expect(cfg.statusCode, cfg.body).toBe(201);
    const before = await count('application_environment_variable');
    expect((await post(op, 'application_environment_variable', { application: fleetId })).statusCode).toBe(401);
    expect((await post(op, 'service_environment_variable', { service: serviceId })).statusCode).toBe(401);
    expect(await count('application_environment_variable')).toBe(before);
  });

  it('lets developers write fleet, service and device variables', async () => {
    const dev = roleUsers.developer;
    expect((await post(dev, 'application_environment_variable', { application: fleetId })).statusCode).toBe(201);
    expect((await post(dev, 'service_environment_variable', { service: serviceId })).statusCode).toBe(201);
    expect((await post(dev, 'device_environment_variable', { device: deviceId })).statusCode).toBe(201);
  });
});

describe('a device with its own key', () => {
  it('seeds and reads its own configuration variables, and no other device\'s', async () => {
    const provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleetId, roles: ['provisioning-api-key'] })).json() as string;
    const register = async () => {
      const res = await t.app.inject({ method: 'POST', url: '/device/register', headers: bearer(provKey), payload: { application: fleetId, uuid: hex(16), device_type: 'raspberrypi3' } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number; api_key: string };
    };
    const me = await register();
    const other = await register();
    const seeded = await req(me.api_key, 'POST', '/v6/device_config_variable', { device: me.id, name: 'RESIN_SUPERVISOR_POLL_INTERVAL', value: '900000' });
    expect(seeded.statusCode, seeded.body).toBe(201);
    const mine = await req(me.api_key, 'GET', '/v6/device_config_variable?$select=name,value');
    expect(mine.json().d).toEqual([{ name: 'RESIN_SUPERVISOR_POLL_INTERVAL', value: '900000' }]);
    const foreign = await req(me.api_key, 'POST', '/v6/device_config_variable', { device: other.id, name: 'RESIN_SUPERVISOR_POLL_INTERVAL', value: '1' });
    expect(foreign.statusCode).toBe(401);
    const fleetVar = await req(me.api_key, 'POST', '/v6/application_config_variable', { application: fleetId, name: `BALENA_D_${hex()}`, value: '1' });
    expect(fleetVar.statusCode).toBe(401);
  });
});

describe('isolation between organizations', () => {
  it("neither shows nor changes another organization's variables", async () => {
    const name = `PRIVATE_${hex()}`;
    const created = await req(owner.token, 'POST', '/v7/device_environment_variable', { device: deviceId, name, value: 'secret' });
    const id = created.json().id as number;

    const list = await req(outsider.token, 'GET', `/v7/device_environment_variable?$filter=device eq ${deviceId}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().d).toEqual([]);
    expect((await req(outsider.token, 'GET', `/v7/device_environment_variable(${id})`)).json().d).toEqual([]);

    const post = await req(outsider.token, 'POST', '/v7/device_environment_variable', { device: deviceId, name: `X_${hex()}`, value: 'v' });
    expect(post.statusCode).toBe(401);
    expect((await req(outsider.token, 'PATCH', `/v7/device_environment_variable(${id})`, { value: 'hacked' })).statusCode).toBe(200);
    expect((await req(outsider.token, 'DELETE', `/v7/device_environment_variable?$filter=name eq '${name}'`)).statusCode).toBe(200);
    const row = await t.db.query<{ value: string }>('SELECT value FROM device_environment_variable WHERE id = $1', [id]);
    expect(row.rows).toEqual([{ value: 'secret' }]);
  });

  it("keeps the outsider's own fleet variables apart", async () => {
    const theirFleet = await fleet(outsider);
    const name = `MINE_${hex()}`;
    expect((await req(outsider.token, 'POST', '/v7/application_environment_variable', { application: theirFleet, name, value: 'a' })).statusCode).toBe(201);
    const ownerView = await req(owner.token, 'GET', `/v7/application_environment_variable?$filter=name eq '${name}'`);
    expect(ownerView.json().d).toEqual([]);
  });
});

describe('device-state announcements', () => {
  it('announces the fleet after a fleet variable write, the device after a device variable write', async () => {
    const seen = announced.length;
    const created = await req(owner.token, 'POST', '/v7/application_config_variable', { application: fleetId, name: `BALENA_ANN_${hex()}`, value: '1' });
    expect(created.statusCode).toBe(201);
    expect((await announcements(seen + 1)).slice(seen)).toEqual([{ applicationIds: [fleetId] }]);

    const dv = await req(owner.token, 'POST', '/v7/device_environment_variable', { device: deviceId, name: `ANN_${hex()}`, value: '1' });
    expect((await announcements(seen + 2))[seen + 1]).toEqual({ deviceIds: [deviceId] });

    await req(owner.token, 'PATCH', `/v7/device_environment_variable(${dv.json().id})`, { value: '2' });
    expect((await announcements(seen + 3))[seen + 2]).toEqual({ deviceIds: [deviceId] });

    await req(owner.token, 'DELETE', `/v7/application_config_variable(${created.json().id})`);
    expect((await announcements(seen + 4))[seen + 3]).toEqual({ applicationIds: [fleetId] });
  });

  it("announces a service variable for the service's fleet and an override for its device", async () => {
    const seen = announced.length;
    await req(owner.token, 'POST', '/v7/service_environment_variable', { service: serviceId, name: `S_${hex()}`, value: '1' });
    expect((await announcements(seen + 1))[seen]).toEqual({ applicationIds: [fleetId] });
    await req(owner.token, 'POST', '/v7/device_service_environment_variable', { service_install: serviceInstallId, name: `O_${hex()}`, value: '1' });
    expect((await announcements(seen + 2))[seen + 1]).toEqual({ deviceIds: [deviceId] });
  });

  it('announces nothing for refused writes and build variables', async () => {
    const stale = await serviceInstall(deviceId, await service(await fleet()));
    await new Promise((resolve) => setImmediate(resolve)); // the new fleet's own announcement is delivered
    const seen = announced.length;
    expect((await req(owner.token, 'POST', '/v7/device_environment_variable', { device: deviceId, name: 'BALENA_NO', value: '1' })).statusCode).toBe(400);
    expect((await req(roleUsers.observer.token, 'POST', '/v7/device_environment_variable', { device: deviceId, name: `N_${hex()}`, value: '1' })).statusCode).toBe(401);
    expect((await req(owner.token, 'POST', '/v7/build_environment_variable', { application: fleetId, name: `B_${hex()}`, value: '1' })).statusCode).toBe(201);
    // Refused after the insert (the service is of another fleet): rolled back, so unannounced.
    const mismatch = await req(owner.token, 'POST', '/v7/device_service_environment_variable', { service_install: stale, name: `M_${hex()}`, value: '1' });
    expect(mismatch.statusCode).toBe(400);
    // A later write's announcement arrives in order: nothing came before it.
    await req(owner.token, 'POST', '/v7/device_config_variable', { device: deviceId, name: `BALENA_MARK_${hex()}`, value: '1' });
    expect((await announcements(seen + 1)).slice(seen)).toEqual([{ deviceIds: [deviceId] }]);
  });
});
