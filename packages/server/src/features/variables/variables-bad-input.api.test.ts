import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_BODY_LIMIT_BYTES, VARIABLE_LIMIT_MESSAGES as L, VARIABLE_MESSAGES as M, VARIABLE_VALUE_MAX_LENGTH } from '@flotilla/model';
import { buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, hex, requester } from '../../../test/support/fleet-helpers.js';

// Issue 16 "Bad input", server side: every invalid name and namespace of spec 2 §5 on every
// kind and level, values over the limit, enum and integer violations of the device type's
// schema, a service of another fleet, a parent of another organization. Each answers a 4xx
// with the message and writes nothing: the variable tables and their history
// (`variable_change`) are unchanged, and an existing variable keeps its name and value.
let t: TestApp;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let outsider: SignedUpUser;
let fleetId: number;
let deviceId: number;
let serviceId: number;
let serviceInstallId: number;
let outsiderFleet: number;
let outsiderDevice: number;
let outsiderService: number;

const TABLES = [
  'application_environment_variable',
  'application_config_variable',
  'service_environment_variable',
  'device_environment_variable',
  'device_config_variable',
  'device_service_environment_variable',
  'build_environment_variable',
];

/** Every variable row (table, id, name, value) and every history row: what "nothing written" compares. */
async function snapshot(): Promise<unknown> {
  const vars = [];
  for (const table of TABLES) vars.push(...(await t.db.query(`SELECT '${table}' AS t, id, name, value FROM ${table} ORDER BY id`)).rows);
  const history = (await t.db.query('SELECT id FROM variable_change ORDER BY id')).rows;
  return { vars, history };
}

/** Runs `write`, expects `status` and `message`, and that nothing was written. */
async function refused(write: () => ReturnType<typeof req>, status: number, message: string, what: string): Promise<void> {
  const before = await snapshot();
  const res = await write();
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBe(status);
  expect(res.json(), what).toBe(message);
  expect(await snapshot(), `${what}: nothing written`).toEqual(before);
}

const parents = () => ({
  application_environment_variable: { application: fleetId },
  service_environment_variable: { service: serviceId },
  device_environment_variable: { device: deviceId },
  device_service_environment_variable: { service_install: serviceInstallId },
  application_config_variable: { application: fleetId },
  device_config_variable: { device: deviceId },
});
const ENV = ['application_environment_variable', 'service_environment_variable', 'device_environment_variable', 'device_service_environment_variable'] as const;
const CONFIG = ['application_config_variable', 'device_config_variable'] as const;

/** Spec 2 §5: each invalid name with its message, per kind. */
const BAD_ENV_NAMES: [string, string][] = [
  ['', M.mandatoryName],
  ['   ', M.mandatoryName],
  ['1ABC', M.invalidEnvironmentName],
  ['_ABC', M.invalidEnvironmentName],
  ['MY-VAR', M.invalidEnvironmentName],
  ['MY VAR', M.invalidEnvironmentName],
  ['A:B', M.invalidEnvironmentName],
  ['RESIN', M.reservedName],
  ['BALENA', M.reservedName],
  ['BALENA_API_KEY', M.reservedName],
  ['RESIN_DEVICE_UUID', M.reservedName],
  ['BALENA_SUPERVISOR_POLL_INTERVAL', M.configOnConfigurationPage],
  ['RESIN_HOST_CONFIG_gpu_mem', M.configOnConfigurationPage],
  ['BALENA_MY_SETTING', M.reservedNamespace],
  ['RESIN_FOO', M.reservedNamespace],
];
const BAD_CONFIG_NAMES: [string, string][] = [
  ['', M.mandatoryName],
  ['BALENA-X', M.invalidConfigName],
  ['1BALENA', M.invalidConfigName],
  [':BALENA', M.invalidConfigName],
  ['RESIN', M.reservedName],
  ['BALENA_API_KEY', M.reservedName],
  ['MY_SETTING', M.configOutsideNamespace],
  ['balena_lowercase', M.configOutsideNamespace],
];

beforeAll(async () => {
  t = await buildTestApp();
  req = requester(t.app);
  [owner, outsider] = await Promise.all([signUp(t.app), signUp(t.app)]);
  fleetId = await createFleet(t.app, t.db, owner, `Bad${hex(3)}`);
  outsiderFleet = await createFleet(t.app, t.db, outsider, `Theirs${hex(3)}`);
  const dt = (await t.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id;
  const mk = async (token: string, resource: string, body: object) => {
    const res = await req(token, 'POST', `/v7/${resource}`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  deviceId = await mk(owner.token, 'device', { uuid: hex(), belongs_to__application: fleetId, is_of__device_type: dt });
  outsiderDevice = await mk(outsider.token, 'device', { uuid: hex(), belongs_to__application: outsiderFleet, is_of__device_type: dt });
  serviceId = await mk(owner.token, 'service', { application: fleetId, service_name: 'main' });
  outsiderService = await mk(outsider.token, 'service', { application: outsiderFleet, service_name: 'main' });
  serviceInstallId = (await t.db.query<{ id: number }>('INSERT INTO service_install (device, installs__service) VALUES ($1, $2) RETURNING id', [deviceId, serviceId])).rows[0]!.id;
  // One valid variable per resource, the target of the refused renames and value changes.
  for (const [table, parent] of Object.entries(parents())) {
    await mk(owner.token, table, { ...parent, name: table.includes('config') ? 'BALENA_SUPERVISOR_POLL_INTERVAL' : 'GOOD', value: '60000' });
  }
});
afterAll(async () => {
  await t?.close();
});

const idOf = async (table: string) => (await t.db.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id LIMIT 1`)).rows[0]!.id;

describe('invalid names (spec 2 §5)', () => {
  it('refuses every invalid environment name on fleet, service, device and device-service variables, created or renamed', async () => {
    for (const table of ENV) {
      const id = await idOf(table);
      for (const [name, message] of BAD_ENV_NAMES) {
        await refused(() => req(owner.token, 'POST', `/v7/${table}`, { ...parents()[table], name, value: 'v' }), 400, message, `POST ${table} '${name}'`);
        await refused(() => req(owner.token, 'PATCH', `/v7/${table}(${id})`, { name }), 400, message, `PATCH ${table} '${name}'`);
      }
    }
  });

  it('refuses every invalid configuration name on fleet and device configuration, created or renamed', async () => {
    for (const table of CONFIG) {
      const id = await idOf(table);
      for (const [name, message] of BAD_CONFIG_NAMES) {
        await refused(() => req(owner.token, 'POST', `/v7/${table}`, { ...parents()[table], name, value: '1' }), 400, message, `POST ${table} '${name}'`);
        await refused(() => req(owner.token, 'PATCH', `/v7/${table}(${id})`, { name }), 400, message, `PATCH ${table} '${name}'`);
      }
    }
  });

  it('covers every message of VARIABLE_MESSAGES', () => {
    const used = new Set([...BAD_ENV_NAMES, ...BAD_CONFIG_NAMES].map(([, m]) => m));
    expect([...used].sort()).toEqual(Object.values(M).sort());
  });
});

describe('values', () => {
  it('refuses a body carrying a value over 1 MiB with the body limit (413) on every table, and writes nothing', async () => {
    const big = 'a'.repeat(VARIABLE_VALUE_MAX_LENGTH + 1);
    expect(big.length).toBeGreaterThan(REQUEST_BODY_LIMIT_BYTES);
    for (const table of [...ENV, ...CONFIG]) {
      const name = table.includes('config') ? 'BALENA_BIG' : 'BIG';
      await refused(() => req(owner.token, 'POST', `/v7/${table}`, { ...parents()[table], name, value: big }), 413, 'Request body is larger than 1 MB', `POST ${table}`);
      const id = await idOf(table);
      await refused(() => req(owner.token, 'PATCH', `/v7/${table}(${id})`, { value: big }), 413, 'Request body is larger than 1 MB', `PATCH ${table}`);
    }
  });

  it('accepts a value near the limit that fits in a body', async () => {
    const value = 'b'.repeat(REQUEST_BODY_LIMIT_BYTES - 1024);
    const res = await req(owner.token, 'POST', '/v7/device_environment_variable', { device: deviceId, name: 'LARGE', value });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(201);
    const stored = await t.db.query<{ n: number }>('SELECT length(value) AS n FROM device_environment_variable WHERE name = $1', ['LARGE']);
    expect(stored.rows).toEqual([{ n: value.length }]);
    expect((await req(owner.token, 'DELETE', `/v7/device_environment_variable(${res.json().id})`)).statusCode).toBe(200);
  });

  it("refuses a value outside the device type's schema (integer, enum) on fleet and device configuration, created or changed", async () => {
    const cases: [string, string, string][] = [
      ['BALENA_SUPERVISOR_POLL_INTERVAL', 'often', L.notInteger('BALENA_SUPERVISOR_POLL_INTERVAL')],
      ['BALENA_SUPERVISOR_POLL_INTERVAL', '1.5', L.notInteger('BALENA_SUPERVISOR_POLL_INTERVAL')],
      ['RESIN_SUPERVISOR_POLL_INTERVAL', '10 minutes', L.notInteger('RESIN_SUPERVISOR_POLL_INTERVAL')],
      ['BALENA_HOST_CONFIG_gpu_mem', '64MB', L.notInteger('BALENA_HOST_CONFIG_gpu_mem')],
      ['BALENA_SUPERVISOR_DELTA', 'yes', L.notInEnum('BALENA_SUPERVISOR_DELTA', ['false', 'true'])],
      ['BALENA_HOST_CONFIG_disable_splash', 'true', L.notInEnum('BALENA_HOST_CONFIG_disable_splash', ['0', '1'])],
    ];
    for (const table of CONFIG) {
      for (const [name, value, message] of cases) {
        await refused(() => req(owner.token, 'POST', `/v7/${table}`, { ...parents()[table], name, value }), 400, message, `POST ${table} ${name}=${value}`);
      }
      const id = await idOf(table); // BALENA_SUPERVISOR_POLL_INTERVAL = 60000
      await refused(() => req(owner.token, 'PATCH', `/v7/${table}(${id})`, { value: 'soon' }), 400, L.notInteger('BALENA_SUPERVISOR_POLL_INTERVAL'), `PATCH ${table}`);
      await refused(() => req(owner.token, 'PATCH', `/v7/${table}(${id})`, { name: 'BALENA_SUPERVISOR_DELTA' }), 400, L.notInEnum('BALENA_SUPERVISOR_DELTA', ['false', 'true']), `rename ${table}`);
      // Valid values pass, names outside the schema take any value.
      for (const [name, value] of [['BALENA_SUPERVISOR_DELTA', 'true'], ['BALENA_HOST_CONFIG_gpu_mem', '64'], ['BALENA_CUSTOM_FREE', 'anything']]) {
        const ok = await req(owner.token, 'POST', `/v7/${table}`, { ...parents()[table], name, value });
        expect(ok.statusCode, `${table} ${name}: ${ok.body}`).toBe(201);
      }
    }
  });
});

describe('parents of other fleets and organizations', () => {
  it("answers 'Service not found' for a device override of a service of another fleet, and writes nothing", async () => {
    const otherFleet = await createFleet(t.app, t.db, owner, `Other${hex(3)}`);
    const otherService = (await req(owner.token, 'POST', '/v7/service', { application: otherFleet, service_name: 'elsewhere' })).json().id as number;
    const stale = (await t.db.query<{ id: number }>('INSERT INTO service_install (device, installs__service) VALUES ($1, $2) RETURNING id', [deviceId, otherService])).rows[0]!.id;
    await refused(() => req(owner.token, 'POST', '/v7/device_service_environment_variable', { service_install: stale, name: 'X', value: 'v' }), 400, 'Service not found', 'override of another fleet');
  });

  it("refuses a service, fleet or device of another organization like one that does not exist (401), and writes nothing", async () => {
    const foreign: [string, object][] = [
      ['service_environment_variable', { service: outsiderService }],
      ['application_environment_variable', { application: outsiderFleet }],
      ['application_config_variable', { application: outsiderFleet }],
      ['device_environment_variable', { device: outsiderDevice }],
      ['device_config_variable', { device: outsiderDevice }],
    ];
    for (const [table, parent] of foreign) {
      const name = table.includes('config') ? 'BALENA_X' : 'X';
      await refused(() => req(owner.token, 'POST', `/v7/${table}`, { ...parent, name, value: 'v' }), 401, 'Unauthorized', `${table} of another organization`);
    }
    // Moving one's own variable onto another organization's device is refused the same way.
    const id = await idOf('device_environment_variable');
    const moved = await req(owner.token, 'PATCH', `/v7/device_environment_variable(${id})`, { device: outsiderDevice });
    expect(moved.statusCode).toBeGreaterThanOrEqual(400);
    expect(moved.statusCode).toBeLessThan(500);
    expect((await t.db.query('SELECT device FROM device_environment_variable WHERE id = $1', [id])).rows).toEqual([{ device: deviceId }]);
  });
});
