import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeConfig, startAgent, type DeviceEvent, type RunningAgent } from '@flotilla/agent';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { giveFleetRole, hex, row } from '../../../test/support/fleet-helpers.js';
import { eventually, insertDevice, TestLink, type TestDevice } from '../../../test/support/cloud-link.js';

// Issue 12, item 10: the device-API endpoints balena-sdk calls with a user's credentials,
// driven by the published balena-sdk over real HTTP as a balena user would:
// - `device.getSupervisorTargetState(uuid, 2|3)` → GET /device/v{2,3}/{uuid}/state
// - `device.getSupervisorTargetStateForApp(fleet, release?)` → GET /device/v3/fleet/{uuid}/state/
// - the supervisor-API proxy (`POST /supervisor/...`) behind device.reboot, shutdown,
//   restartApplication, purge, update, identify, ping, getSupervisorState, start/stop/
//   restartService and application.reboot/shutdown/purge.
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let fleet: { id: number; uuid: string; slug: string };
let dir: string;
const agents: RunningAgent[] = [];

type Sdk = ReturnType<typeof sdkClient>;

async function sdkFor(token: string): Promise<Sdk> {
  const s = sdkClient(apiUrl);
  await s.auth.loginWithToken(token);
  return s;
}

/** A successful release of `appId` with one service (and image), written as the builder leaves it. */
async function insertRelease(appId: number, serviceName = 'main'): Promise<{ id: number; commit: string; imageId: number; serviceId: number }> {
  const commit = hex();
  const release = (await t.db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', $3) RETURNING id`, [appId, commit, { services: { [serviceName]: { environment: { FROM_COMPOSE: '1' } } } }])).rows[0]!.id;
  const serviceId =
    (await row<{ id: number }>(t.db, 'SELECT id FROM service WHERE application = $1 AND service_name = $2', [appId, serviceName]))?.id ??
    (await t.db.query<{ id: number }>('INSERT INTO service (application, service_name) VALUES ($1, $2) RETURNING id', [appId, serviceName])).rows[0]!.id;
  const imageId = (
    await t.db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', $2) RETURNING id`, [
      serviceId,
      `registry.test/v2/${hex(8)}@sha256:${hex(32)}`,
    ])
  ).rows[0]!.id;
  await t.db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [imageId, release]);
  return { id: release, commit, imageId, serviceId };
}

/** What the SDK's request layer throws: the status and the server's body. */
async function failure(p: Promise<unknown>): Promise<{ statusCode: number | undefined; body: unknown }> {
  try {
    await p;
  } catch (err) {
    const e = err as { statusCode?: number; body?: unknown };
    return { statusCode: e.statusCode, body: e.body };
  }
  throw new Error('expected the call to fail');
}

const isOnline = (id: number) => row<{ is_online: boolean }>(t.db, 'SELECT is_online FROM device WHERE id = $1', [id]);

async function linked(fleetId = fleet.id): Promise<{ device: TestDevice; link: TestLink }> {
  const device = await insertDevice(t.db, fleetId);
  // The SDK's service calls need a supervisor that has the multi-container API (>= 7).
  await t.db.query(`UPDATE device SET supervisor_version = '16.1.0' WHERE id = $1`, [device.id]);
  const link = await TestLink.open(apiUrl, device.key);
  await eventually(() => isOnline(device.id), (r) => r?.is_online === true);
  return { device, link };
}

async function offlineDevice(): Promise<TestDevice> {
  const device = await insertDevice(t.db, fleet.id);
  await t.db.query(`UPDATE device SET supervisor_version = '16.1.0' WHERE id = $1`, [device.id]);
  return device;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  sdk = await sdkFor(owner.token);
  const created = await sdk.models.application.create({ name: 'CompatDeviceApi', deviceType: 'raspberrypi3', organization: owner.username });
  const got = await sdk.models.application.get(created.id, { $select: ['uuid', 'slug'] });
  fleet = { id: created.id, uuid: got.uuid, slug: got.slug };
  dir = mkdtempSync(join(tmpdir(), 'flotilla-compat-'));
});
afterAll(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a device's target state read by a user (device.getSupervisorTargetState)", () => {
  it('answers a session user and a user API key with what the device itself reads, v2 and v3, without a heartbeat', async () => {
    const release = await insertRelease(fleet.id);
    await sdk.models.application.pinToRelease(fleet.id, release.commit);
    const device = await insertDevice(t.db, fleet.id);
    await sdk.models.device.envVar.set(device.uuid, 'DEVICE_VAR', 'x');

    const v3 = await sdk.models.device.getSupervisorTargetState(device.uuid, 3);
    const services = (v3 as unknown as Record<string, { apps: Record<string, { releases: Record<string, { services: Record<string, { environment: Record<string, string> }> }> }> }>)[device.uuid]!.apps[fleet.uuid]!.releases[release.commit]!.services;
    expect(services.main!.environment).toEqual({ FROM_COMPOSE: '1', DEVICE_VAR: 'x' });
    // The SDK's default is v2; by id as well as by uuid.
    const v2 = await sdk.models.device.getSupervisorTargetState(device.id);
    expect((v2 as { local: { apps: Record<string, { commit: string }> } }).local.apps[String(fleet.id)]!.commit).toBe(release.commit);
    const apiKey = await sdk.models.apiKey.create({ name: 'compat-state', expiryDate: null });
    const byKey = await sdkFor(apiKey);
    expect(await byKey.models.device.getSupervisorTargetState(device.uuid, 3)).toEqual(v3);

    // The user's reads are not the device's polls: its heartbeat stays unknown (batches flush every second).
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await row<{ api_heartbeat_state: string }>(t.db, 'SELECT api_heartbeat_state FROM device WHERE id = $1', [device.id]))!.api_heartbeat_state).toBe('unknown');

    // The same bodies the device itself polls.
    const asDevice = async (v: 2 | 3) => (await fetch(`${apiUrl}/device/v${v}/${device.uuid}/state`, { headers: { authorization: `Bearer ${device.key}` } })).json();
    expect(v3).toEqual(await asDevice(3));
    expect(v2).toEqual(await asDevice(2));
  });

  it('lets a fleet observer read it, and refuses a user of another organization as balena does (401)', async () => {
    const device = await insertDevice(t.db, fleet.id);
    const observer = await signUp(t.app);
    await giveFleetRole(t.db, owner.orgId, fleet.id, observer, 'observer');
    const asObserver = await sdkFor(observer.token);
    expect(await asObserver.models.device.getSupervisorTargetState(device.uuid, 3)).toHaveProperty(device.uuid);

    const stranger = await signUp(t.app);
    const asStranger = await sdkFor(stranger.token);
    // The SDK looks the device up first and does not find it…
    await expect(asStranger.models.device.getSupervisorTargetState(device.uuid, 3)).rejects.toThrow(/Device not found/);
    // …and the endpoint itself gives nothing away: the same 401 for a device they cannot see and for one that never was.
    for (const uuid of [device.uuid, hex()]) {
      for (const v of [2, 3]) {
        const res = await fetch(`${apiUrl}/device/v${v}/${uuid}/state`, { headers: { authorization: `Bearer ${stranger.token}` } });
        expect([uuid === device.uuid ? 'visible' : 'unknown', v, res.status]).toEqual([uuid === device.uuid ? 'visible' : 'unknown', v, 401]);
      }
    }
  });
});

describe("a fleet's target state (device.getSupervisorTargetStateForApp)", () => {
  it("answers the fleet's tracked release, or the release named, in the v3 shape", async () => {
    const app = await sdk.models.application.create({ name: `CompatFleetState${hex(2)}`, deviceType: 'raspberrypi3', organization: owner.username });
    const { uuid } = await sdk.models.application.get(app.id, { $select: 'uuid' });
    // No release yet: the fleet's app without releases.
    expect(await sdk.models.device.getSupervisorTargetStateForApp(app.id)).toEqual({
      [uuid]: { name: app.app_name, config: {}, apps: { [uuid]: { id: app.id, name: app.app_name, class: 'fleet' } } },
    });

    const older = await insertRelease(app.id);
    const tracked = await insertRelease(app.id);
    await sdk.models.application.pinToRelease(app.id, tracked.commit);
    await sdk.models.application.configVar.set(app.id, 'RESIN_SUPERVISOR_POLL_INTERVAL', '900000');
    await sdk.models.application.envVar.set(app.id, 'FLEET_VAR', 'fleet');
    const state = (await sdk.models.device.getSupervisorTargetStateForApp(fleetSlug(app))) as unknown as Record<string, { name: string; config: Record<string, string>; apps: Record<string, { releases: Record<string, { id: number; services: Record<string, { image_id: number; environment: Record<string, string> }> }> }> }>;
    expect(Object.keys(state)).toEqual([uuid]);
    expect(state[uuid]!.config).toEqual({ RESIN_SUPERVISOR_POLL_INTERVAL: '900000' });
    expect(Object.keys(state[uuid]!.apps[uuid]!.releases)).toEqual([tracked.commit]);
    expect(state[uuid]!.apps[uuid]!.releases[tracked.commit]).toMatchObject({
      id: tracked.id,
      services: { main: { id: tracked.serviceId, image_id: tracked.imageId, environment: { FROM_COMPOSE: '1', FLEET_VAR: 'fleet' } } },
    });

    const named = (await sdk.models.device.getSupervisorTargetStateForApp(app.id, older.commit)) as unknown as typeof state;
    expect(Object.keys(named[uuid]!.apps[uuid]!.releases)).toEqual([older.commit]);
    expect(named[uuid]!.apps[uuid]!.releases[older.commit]!.services.main!.image_id).toBe(older.imageId);

    // A release that is not a successful release of this fleet, and another organization's user: balena's 401.
    expect((await failure(sdk.models.device.getSupervisorTargetStateForApp(app.id, hex()))).statusCode).toBe(401);
    const stranger = await signUp(t.app);
    const res = await fetch(`${apiUrl}/device/v3/fleet/${uuid}/state/?releaseUuid=`, { headers: { authorization: `Bearer ${stranger.token}` } });
    expect(res.status).toBe(401);
    // A fleet observer may read it.
    const observer = await signUp(t.app);
    await giveFleetRole(t.db, owner.orgId, app.id, observer, 'observer');
    expect(await (await sdkFor(observer.token)).models.device.getSupervisorTargetStateForApp(app.id)).toEqual(state);
  });
});

function fleetSlug(app: { app_name: string }): string {
  return `${owner.username}/${app.app_name}`.toLowerCase();
}

describe('the supervisor API through balena-sdk', () => {
  it("answers 404 'No online device(s) found' for every action on an offline device", async () => {
    const device = await offlineDevice();
    const calls: [string, () => Promise<unknown>][] = [
      ['reboot', () => sdk.models.device.reboot(device.uuid)],
      ['shutdown', () => sdk.models.device.shutdown(device.uuid, { force: false })],
      ['restartApplication', () => sdk.models.device.restartApplication(device.uuid)],
      ['purge', () => sdk.models.device.purge(device.uuid)],
      ['update', () => sdk.models.device.update(device.uuid, { force: false })],
      ['identify', () => sdk.models.device.identify(device.uuid)],
      ['ping', () => sdk.models.device.ping(device.uuid)],
      ['getSupervisorState', () => sdk.models.device.getSupervisorState(device.uuid)],
      ['startService', () => sdk.models.device.startService(device.uuid, 1)],
      ['stopService', () => sdk.models.device.stopService(device.uuid, 1)],
      ['restartService', () => sdk.models.device.restartService(device.uuid, 1)],
    ];
    for (const [name, call] of calls) {
      expect([name, await failure(call())]).toEqual([name, { statusCode: 404, body: 'No online device(s) found' }]);
    }
  });

  it('relays each action to an online device with its parameters, and answers with the device', async () => {
    const { device, link } = await linked();
    try {
      link.answer = (a) =>
        a.action === 'device' ? { status: 200, body: { status: 'Idle', commit: 'abc', supervisor_version: '16.1.0' } } : { status: 200, body: a.action === 'ping' ? 'OK' : { Data: 'OK', Error: null } };
      await sdk.models.device.reboot(device.uuid, { force: true });
      await sdk.models.device.shutdown(device.id, { force: false });
      await sdk.models.device.restartApplication(device.uuid);
      await sdk.models.device.purge(device.uuid);
      await sdk.models.device.update(device.uuid, { force: true });
      await sdk.models.device.identify(device.uuid);
      await sdk.models.device.ping(device.uuid);
      expect(await sdk.models.device.getSupervisorState(device.uuid)).toEqual({ status: 'Idle', commit: 'abc', supervisor_version: '16.1.0' });
      await sdk.models.device.startService(device.uuid, 41);
      await sdk.models.device.stopService(device.uuid, 42);
      await sdk.models.device.restartService(device.uuid, 43);
      expect(link.actions.map((a) => [a.action, a.params])).toEqual([
        ['reboot', { force: true }],
        ['shutdown', { force: false, appId: fleet.id }],
        ['restart', { appId: fleet.id }],
        ['purge', { appId: fleet.id }],
        ['update', { force: true, appId: fleet.id }],
        ['blink', {}],
        ['ping', { appId: fleet.id }],
        ['device', {}],
        ['start-service', { appId: fleet.id, imageId: 41 }],
        ['stop-service', { appId: fleet.id, imageId: 42 }],
        ['restart-service', { appId: fleet.id, imageId: 43 }],
      ]);
    } finally {
      await link.close();
    }
  });

  it("acts on every online device of a fleet (application.reboot): 207 with each device's answer", async () => {
    const app = await sdk.models.application.create({ name: `CompatFleetActs${hex(2)}`, deviceType: 'raspberrypi3', organization: owner.username });
    await expect(sdk.models.application.reboot(app.id)).rejects.toMatchObject({ statusCode: 404, body: 'No online device(s) found' });
    const a = await linked(app.id);
    const b = await linked(app.id);
    await insertDevice(t.db, app.id); // offline: left alone
    try {
      const res = await sdk.request.send({ method: 'POST', url: '/supervisor/v1/reboot', baseUrl: apiUrl, body: { appId: app.id, data: { force: false } } });
      expect(res.statusCode).toBe(207);
      expect(res.body).toEqual([
        { statusCode: 200, body: 'OK' },
        { statusCode: 200, body: 'OK' },
      ]);
      await sdk.models.application.purge(app.id);
      expect([a.link.actions.map((x) => x.action), b.link.actions.map((x) => x.action)]).toEqual([
        ['reboot', 'purge'],
        ['reboot', 'purge'],
      ]);
    } finally {
      await Promise.all([a.link.close(), b.link.close()]);
    }
  });

  it('lets a fleet observer read the supervisor state and ping, but not act (403)', async () => {
    const { device, link } = await linked();
    try {
      const observer = await signUp(t.app);
      await giveFleetRole(t.db, owner.orgId, fleet.id, observer, 'observer');
      const asObserver = await sdkFor(observer.token);
      link.answer = (a) => ({ status: 200, body: a.action === 'device' ? { status: 'Idle' } : 'OK' });
      expect(await asObserver.models.device.getSupervisorState(device.uuid)).toEqual({ status: 'Idle' });
      await asObserver.models.device.ping(device.uuid);
      for (const call of [() => asObserver.models.device.reboot(device.uuid), () => asObserver.models.device.identify(device.uuid), () => asObserver.models.device.restartService(device.uuid, 1)]) {
        expect((await failure(call())).statusCode).toBe(403);
      }
      expect(link.actions.map((a) => a.action)).toEqual(['device', 'ping']);
      // An operator may act.
      const operator = await signUp(t.app);
      await giveFleetRole(t.db, owner.orgId, fleet.id, operator, 'operator');
      await (await sdkFor(operator.token)).models.device.reboot(device.uuid);
      expect(link.actions.map((a) => a.action)).toEqual(['device', 'ping', 'reboot']);
    } finally {
      await link.close();
    }
  });

  it("gives another organization's user balena's not-found answer and never reaches the device", async () => {
    const { device, link } = await linked();
    try {
      const stranger = await sdkFor((await signUp(t.app)).token);
      await expect(stranger.models.device.reboot(device.uuid)).rejects.toThrow(/Device not found/);
      const send = (url: string, body: object) => failure(stranger.request.send({ method: 'POST', url, baseUrl: apiUrl, body }));
      const notFound = { statusCode: 404, body: 'No online device(s) found' };
      expect(await send('/supervisor/v1/reboot', { deviceId: device.id, data: {} })).toEqual(notFound);
      expect(await send('/supervisor/v1/device', { uuid: device.uuid, method: 'GET' })).toEqual(notFound);
      expect(await send('/supervisor/ping', { deviceId: device.id, method: 'GET' })).toEqual(notFound);
      expect(await send('/supervisor/v1/purge', { appId: fleet.id, data: { appId: String(fleet.id) } })).toEqual(notFound);
      expect(link.actions).toEqual([]);
    } finally {
      await link.close();
    }
  });
});

describe('supervisor-API methods', () => {
  it("answers balena's 400 for a method it does not relay, 405 for one the path does not take, and leaves the device alone", async () => {
    const { device, link } = await linked();
    try {
      const send = (url: string, body: object) => failure(sdk.request.send({ method: 'POST', url, baseUrl: apiUrl, body }));
      expect(await send('/supervisor/v1/reboot', { deviceId: device.id, method: 'TRACE' })).toEqual({ statusCode: 400, body: "Invalid method 'TRACE'" });
      expect((await send('/supervisor/v1/reboot', { deviceId: device.id, method: 'GET' })).statusCode).toBe(405);
      expect((await send('/supervisor/v1/device', { deviceId: device.id })).statusCode).toBe(405);
      // Methods are case-insensitive, as balena upper-cases them.
      const res = await sdk.request.send({ method: 'POST', url: '/supervisor/v1/device', baseUrl: apiUrl, body: { deviceId: device.id, method: 'get' } });
      expect(res.statusCode).toBe(200);
      expect(link.actions.map((a) => a.action)).toEqual(['device']);
    } finally {
      await link.close();
    }
  });
});

describe('the supervisor API reaching the real agent', () => {
  it('pings it, reads its supervisor state, and reboots it', async () => {
    // A fleet of its own with no release, so the agent has nothing to download.
    const agentFleet = await sdk.models.application.create({ name: `CompatAgent${hex(2)}`, deviceType: 'raspberrypi3', organization: owner.username });
    const provKey = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: agentFleet.id, keyExpiryDate: null });
    const { config } = normalizeConfig({ apiEndpoint: apiUrl, applicationId: agentFleet.id, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000, updateLockPath: join(dir, `lock-${hex(4)}`) });
    const events: DeviceEvent[] = [];
    const agent = await startAgent({ config, log: () => {}, onEvent: (e) => events.push(e), downloadMs: 100, applyMs: 50, reportDebounceMs: 50, rebootOfflineMs: 300 });
    agents.push(agent);
    await eventually(() => row<{ is_online: boolean }>(t.db, 'SELECT is_online FROM device WHERE uuid = $1', [config.uuid]), (r) => r?.is_online === true, 15_000);

    await sdk.models.device.ping(config.uuid);
    const state = await sdk.models.device.getSupervisorState(config.uuid);
    expect(state).toMatchObject({ status: 'Idle', update_pending: false, update_downloaded: false, update_failed: false, os_version: expect.any(String), supervisor_version: expect.any(String) });
    await sdk.models.device.reboot(config.uuid);
    await eventually(async () => events.filter((e) => e.type === 'power'), (p) => p.length > 0, 10_000);
    expect(events.filter((e) => e.type === 'action').map((e) => (e as { action: string }).action)).toEqual(['ping', 'device', 'reboot']);
  });
});
