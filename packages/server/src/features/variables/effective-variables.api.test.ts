import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEVICE_TYPES, effectiveValues, type EffectiveVariable, type EffectiveVariablesResponse, type VariableLevel } from '@flotilla/model';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, giveFleetRole, hex, requester, row } from '../../../test/support/fleet-helpers.js';

// Issue 16 item 2: `GET /device/{uuid}/effective-variables` against the target state the
// device fetches. A property test over seeded random assignments of every level (composition
// environment, fleet, fleet service, device, device service, fleet and device configuration,
// the device type's schema defaults), all set through the published balena-sdk: the
// endpoint's effective values equal the target state's, service by service and for config,
// and each variable names the level this test itself knows set it. Plus who may read it.
let t: TestApp;
let req: ReturnType<typeof requester>;
let sdk: ReturnType<typeof sdkClient>;
let owner: SignedUpUser;
let outsider: SignedUpUser;
let observer: SignedUpUser;
let fleetId: number;
let device: { id: number; uuid: string; api_key: string };
const services: Record<string, number> = {};
const SERVICE_NAMES = ['main', 'worker'] as const;

/** mulberry32: a small seeded PRNG, so a failure replays with the same assignments. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ENV_NAMES = ['ALPHA', 'BETA', 'GAMMA', 'DELTA'];
const SCHEMA = DEVICE_TYPES.find((d) => d.slug === 'raspberrypi3')!.configVars;
/** Configuration names: three of the schema (with defaults, of each kind) and a custom one. */
const CONFIG_NAMES = ['BALENA_SUPERVISOR_POLL_INTERVAL', 'BALENA_HOST_CONFIG_gpu_mem', 'BALENA_SUPERVISOR_DELTA', 'BALENA_CUSTOM_THING'];
/** A valid value of configuration variable `name` (schema enums and integers respected). */
function configValue(name: string, rnd: () => number): string {
  const p = SCHEMA[name];
  if (p?.enum) return p.enum[Math.floor(rnd() * p.enum.length)]!;
  if (p?.type === 'integer') return String(1000 + Math.floor(rnd() * 100_000));
  return `c${Math.floor(rnd() * 1000)}`;
}

type Vars = Record<string, string>;
/** What the test set at each level, in precedence order (its own oracle). */
interface World {
  image: Record<string, Vars>;
  fleet: Vars;
  fleetService: Record<string, Vars>;
  device: Vars;
  deviceService: Record<string, Vars>;
  fleetConfig: Vars;
  deviceConfig: Vars;
}

/** Each name assigned at a level with probability 1/2, to a value naming the level. */
function assign(rnd: () => number, names: string[], tag: string, value = (): string => `${tag}-${Math.floor(rnd() * 1000)}`): Vars {
  const out: Vars = {};
  for (const n of names) if (rnd() < 0.5) out[n] = value();
  return out;
}

/** The expected effective environment of `service`, computed from the test's own record. */
function expectedEnvironment(w: World, service: string): EffectiveVariable[] {
  const levels: [VariableLevel, Vars][] = [
    ['device-service', w.deviceService[service] ?? {}],
    ['device', w.device],
    ['fleet-service', w.fleetService[service] ?? {}],
    ['fleet', w.fleet],
    ['image', w.image[service] ?? {}],
  ];
  return expected(levels, ENV_NAMES);
}

function expectedConfig(w: World): EffectiveVariable[] {
  const defaults: Vars = {};
  for (const [n, p] of Object.entries(SCHEMA)) if (p.default !== undefined) defaults[n] = p.default;
  const set = expected(
    [
      ['device-config', w.deviceConfig],
      ['fleet-config', w.fleetConfig],
    ],
    CONFIG_NAMES,
  );
  const named = new Set(set.map((v) => v.name));
  for (const [n, value] of Object.entries(defaults)) if (!named.has(n)) set.push({ name: n, value, level: 'schema-default', overrides: [] });
  return set.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Levels highest first: the first that sets a name wins, the others are what it overrides. */
function expected(levels: [VariableLevel, Vars][], names: string[]): EffectiveVariable[] {
  const out: EffectiveVariable[] = [];
  for (const name of [...names].sort()) {
    const setting = levels.filter(([, vars]) => name in vars).map(([level, vars]) => ({ level, value: vars[name]! }));
    if (setting.length === 0) continue;
    out.push({ name, value: setting[0]!.value, level: setting[0]!.level, overrides: setting.slice(1) });
  }
  return out;
}

/** Brings the fleet's variables from `from` to `to` through balena-sdk (upsert and remove). */
async function sync(from: Vars, to: Vars, set: (n: string, v: string) => Promise<unknown>, remove: (n: string) => Promise<unknown>) {
  for (const [n, v] of Object.entries(to)) if (from[n] !== v) await set(n, v);
  for (const n of Object.keys(from)) if (!(n in to)) await remove(n);
}

/** A successful release whose composition gives each service the environment `image`. */
async function release(image: Record<string, Vars>): Promise<string> {
  const commit = hex();
  const composition = { services: Object.fromEntries(SERVICE_NAMES.map((s) => [s, { image: `${s}-image`, environment: image[s] ?? {} }])) };
  const id = (
    await t.db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', $3) RETURNING id`, [
      fleetId,
      commit,
      composition,
    ])
  ).rows[0]!.id;
  for (const s of SERVICE_NAMES) {
    const image = (
      await t.db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', $2) RETURNING id`, [
        services[s],
        `registry.test/v2/${hex(8)}@sha256:${hex(32)}`,
      ])
    ).rows[0]!.id;
    await t.db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [image, id]);
  }
  return commit;
}

const effective = (token: string | null, uuid = device.uuid) => req(token, 'GET', `/device/${uuid}/effective-variables`);

async function targetState(): Promise<{ config: Vars; apps: Record<string, { releases?: Record<string, { services: Record<string, { environment: Vars }> }> }> }> {
  const res = await t.app.inject({ method: 'GET', url: `/device/v3/${device.uuid}/state`, headers: { authorization: `Bearer ${device.api_key}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[device.uuid];
}

beforeAll(async () => {
  t = await buildTestApp();
  req = requester(t.app);
  const apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, outsider, observer] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  fleetId = await createFleet(t.app, t.db, owner, `Effective${hex(3)}`);
  await giveFleetRole(t.db, owner.orgId, fleetId, observer, 'observer');
  const provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleetId, roles: ['provisioning-api-key'] })).json();
  const reg = await req(provKey, 'POST', '/device/register', { application: fleetId, uuid: hex(), device_type: 'raspberrypi3' });
  expect(reg.statusCode, reg.body).toBe(201);
  device = reg.json();
  for (const s of SERVICE_NAMES) {
    services[s] = ((await sdk.pine.post({ resource: 'service', body: { application: fleetId, service_name: s } })) as { id: number }).id;
    // Service installs come from the device's state reports; arranged directly here.
    await t.db.query('INSERT INTO service_install (device, installs__service) VALUES ($1, $2)', [device.id, services[s]]);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('GET /device/{uuid}/effective-variables', () => {
  it('answers the device, no release and no services before the fleet has one, with the schema defaults as config', async () => {
    const res = await effective(owner.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<EffectiveVariablesResponse>();
    expect(body.device).toEqual({ id: device.id, uuid: device.uuid, device_type: 'raspberrypi3' });
    expect(body.release).toBeNull();
    expect(body.services).toEqual([]);
    expect(body.config.map((v) => v.level)).toEqual(Object.keys(SCHEMA).filter((n) => SCHEMA[n]!.default !== undefined).map(() => 'schema-default'));
    expect((await targetState()).config).toEqual({});
  });

  it('equals the target state on 40 seeded random assignments of every level, and names the level that set each variable', async () => {
    const rnd = prng(16);
    const dev = sdk.models.device;
    let w: World = { image: {}, fleet: {}, fleetService: {}, device: {}, deviceService: {}, fleetConfig: {}, deviceConfig: {} };
    const levelsSeen = new Set<VariableLevel>();
    for (let round = 0; round < 40; round++) {
      const next: World = {
        image: Object.fromEntries(SERVICE_NAMES.map((s) => [s, assign(rnd, ENV_NAMES, `image-${s}`)])),
        fleet: assign(rnd, ENV_NAMES, 'fleet'),
        fleetService: Object.fromEntries(SERVICE_NAMES.map((s) => [s, assign(rnd, ENV_NAMES, `fleet-service-${s}`)])),
        device: assign(rnd, ENV_NAMES, 'device'),
        deviceService: Object.fromEntries(SERVICE_NAMES.map((s) => [s, assign(rnd, ENV_NAMES, `device-service-${s}`)])),
        fleetConfig: assign(rnd, CONFIG_NAMES, '', () => ''),
        deviceConfig: assign(rnd, CONFIG_NAMES, '', () => ''),
      };
      for (const c of [next.fleetConfig, next.deviceConfig]) for (const n of Object.keys(c)) c[n] = configValue(n, rnd);

      const commit = await release(next.image);
      await sdk.models.application.pinToRelease(fleetId, commit);
      await sync(w.fleet, next.fleet, (n, v) => sdk.models.application.envVar.set(fleetId, n, v), (n) => sdk.models.application.envVar.remove(fleetId, n));
      await sync(w.device, next.device, (n, v) => dev.envVar.set(device.uuid, n, v), (n) => dev.envVar.remove(device.uuid, n));
      await sync(w.fleetConfig, next.fleetConfig, (n, v) => sdk.models.application.configVar.set(fleetId, n, v), (n) => sdk.models.application.configVar.remove(fleetId, n));
      await sync(w.deviceConfig, next.deviceConfig, (n, v) => dev.configVar.set(device.uuid, n, v), (n) => dev.configVar.remove(device.uuid, n));
      for (const s of SERVICE_NAMES) {
        const id = services[s]!;
        await sync(w.fleetService[s] ?? {}, next.fleetService[s]!, (n, v) => sdk.models.service.var.set(id, n, v), (n) => sdk.models.service.var.remove(id, n));
        await sync(w.deviceService[s] ?? {}, next.deviceService[s]!, (n, v) => dev.serviceVar.set(device.uuid, id, n, v), (n) => dev.serviceVar.remove(device.uuid, id, n));
      }
      w = next;

      const res = await effective(owner.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<EffectiveVariablesResponse>();
      expect(body.release?.commit, `round ${round}`).toBe(commit);
      expect(body.services.map((s) => [s.service_name, s.id])).toEqual(SERVICE_NAMES.map((s) => [s, services[s]]));
      for (const s of body.services) {
        expect(s.environment, `round ${round} ${s.service_name}`).toEqual(expectedEnvironment(w, s.service_name));
        for (const v of s.environment) levelsSeen.add(v.level);
      }
      expect(body.config, `round ${round} config`).toEqual(expectedConfig(w));
      for (const v of body.config) levelsSeen.add(v.level);

      // What the device fetches: the same values (the announcement that drops the device
      // API's cache arrives just after the commit, hence the wait).
      await vi.waitFor(async () => {
        const state = await targetState();
        const app = Object.values(state.apps).find((a) => a.releases?.[commit]);
        expect(app, `round ${round}: target release`).toBeDefined();
        const sent = app!.releases![commit]!.services;
        for (const s of body.services) expect(sent[s.service_name]!.environment, `round ${round} ${s.service_name}`).toEqual(effectiveValues(s.environment));
        expect(state.config, `round ${round} config`).toEqual(effectiveValues(body.config, { sentOnly: true }));
      });
    }
    // The assignments reached every level, each winning somewhere.
    expect([...levelsSeen].sort()).toEqual(['device', 'device-config', 'device-service', 'fleet', 'fleet-config', 'fleet-service', 'image', 'schema-default']);
  }, 240_000);

  it('lets a fleet observer read it, and answers 404 to another organization and 401 without credentials', async () => {
    const seen = await effective(observer.token);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().device.uuid).toBe(device.uuid);
    const other = await effective(outsider.token);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toBe('Device not found');
    const unknown = await effective(owner.token, hex());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toBe('Device not found');
    expect((await effective(null)).statusCode).toBe(401);
    expect(await row(t.db, 'SELECT 1 FROM device WHERE uuid = $1', [device.uuid])).toBeDefined();
  });
});
