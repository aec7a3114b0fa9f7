import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { normalizeConfig, startAgent, startSimulation, type Device, type RunningAgent } from '@flotilla/agent';
import { buildTestApp, signUp, type SignedUpUser, type TestApp } from './harness.js';
import { createFleet, hex, requester, row } from './support/fleet-helpers.js';
import { AgentEvents } from './support/agent-events.js';
import { waitFor as eventually } from './support/wait-for.js';

// The device agent (packages/agent, issue 5 item 4) in-process against the real server on
// a real port: registration with a provisioning key and the key exchange, the ETag poll
// (200 then 304), the state report landing in the device row, an update to a pinned
// release with its progress, and actions over the cloud link.
let t: TestApp;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let fleet: number;
let provKey: string;
let dir: string;
const agents: RunningAgent[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  req = requester(t.app);
  owner = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, owner, 'AgentFleet');
  provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  dir = mkdtempSync(join(tmpdir(), 'flotilla-agent-'));
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});


async function runAgent(extra: Record<string, unknown> = {}, configPath?: string) {
  const raw = { apiEndpoint: apiUrl, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000, updateLockPath: join(dir, `lock-${hex(4)}`), ...extra };
  const { config } = normalizeConfig(raw);
  const events = new AgentEvents();
  const agent = await startAgent({
    config,
    ...(configPath ? { configPath } : {}),
    log: () => {},
    onEvent: events.push,
    downloadMs: 600,
    applyMs: 200,
    reportDebounceMs: 50,
    rebootOfflineMs: 300,
  });
  agents.push(agent);
  return { agent, events, config };
}

/** Waits until `probe` returns a truthy value (the server writes asynchronously). */
/** A successful release of the fleet with services (and one image each), as the builder leaves it. */
async function insertRelease(names: string[]) {
  const commit = hex();
  const release = (await t.db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status) VALUES ($1, $2, 'success') RETURNING id`, [fleet, commit])).rows[0]!.id;
  for (const name of names) {
    const service =
      (await row<{ id: number }>(t.db, 'SELECT id FROM service WHERE application = $1 AND service_name = $2', [fleet, name]))?.id ??
      (await t.db.query<{ id: number }>('INSERT INTO service (application, service_name) VALUES ($1, $2) RETURNING id', [fleet, name])).rows[0]!.id;
    const image = (
      await t.db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', $2) RETURNING id`, [
        service,
        `registry.test/v2/${hex(8)}@sha256:${hex(32)}`,
      ])
    ).rows[0]!.id;
    await t.db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [image, release]);
  }
  return { id: release, commit };
}

const deviceRow = (uuid: string) =>
  row<Record<string, unknown>>(
    t.db,
    `SELECT id, is_online, status, update_status, os_variant, supervisor_version, memory_total, storage_total, cpu_usage, is_running__release, api_heartbeat_state
       FROM device WHERE uuid = $1`,
    [uuid],
  );

describe('the agent registering', () => {
  it('registers with the provisioning key, writes its identity back and drops the key', async () => {
    const path = join(dir, `config-${hex(4)}.json`);
    const { events, config } = await runAgent({}, path);
    const registered = await events.next('registered');
    expect(registered.exchanged).toBe(false);
    const device = await eventually(() => deviceRow(config.uuid), 'the device row');
    expect(device.id).toBe(registered.deviceId);
    const file = JSON.parse(readFileSync(path, 'utf8'));
    expect(file).toMatchObject({ uuid: config.uuid, deviceApiKey: config.deviceApiKey, deviceId: registered.deviceId, applicationId: fleet });
    expect(file).not.toHaveProperty('apiKey');
  });

  it('exchanges keys when its uuid is already registered, then works with the new key', async () => {
    const first = await runAgent();
    const { deviceId } = await first.events.next('registered');
    await first.agent.stop();
    // Re-flashed: same uuid, new device key, provisioning key again.
    const second = await runAgent({ uuid: first.config.uuid });
    expect(second.config.deviceApiKey).not.toBe(first.config.deviceApiKey);
    const registered = await second.events.next('registered');
    expect(registered).toEqual({ type: 'registered', deviceId, exchanged: true });
    await second.events.next('poll', (e) => e.status === 200);
  });
});

describe('the agent polling and reporting', () => {
  it('polls 200 first, then 304 while nothing changes, and its report lands in the device row', async () => {
    const { events, config } = await runAgent();
    const firstReport = events.next('report');
    await events.next('poll', (e) => e.status === 200);
    await events.next('poll', (e) => e.status === 304);
    const report = await firstReport;
    expect(report.fields).toMatchObject({ supervisor_version: '14.0.0', os_variant: 'prod', update_status: 'done' });
    const device = await eventually(async () => {
      const d = await deviceRow(config.uuid);
      return d?.memory_total !== null && d?.supervisor_version === '14.0.0' ? d : undefined;
    }, 'the report in the device row');
    expect(device).toMatchObject({ status: 'Idle', update_status: 'done', os_variant: 'prod' });
    expect(Number(device.memory_total)).toBeGreaterThan(0);
    expect(Number(device.storage_total)).toBeGreaterThan(0);
    expect(device.api_heartbeat_state).toBe('online');
  });

  it('goes through downloading → done when pinned to a new release, and the device runs it', async () => {
    const r1 = await insertRelease(['main', 'worker']);
    await t.db.query('UPDATE application SET should_be_running__release = $2, should_track_latest_release = false WHERE id = $1', [fleet, r1.id]);
    const { events, config } = await runAgent();
    await events.next('update', (e) => e.phase === 'done' && e.commit === r1.commit);
    const d1 = await eventually(async () => {
      const d = await deviceRow(config.uuid);
      return d?.is_running__release === r1.id ? d : undefined;
    }, 'is_running__release = r1');

    const r2 = await insertRelease(['main', 'worker']);
    const downloading = events.next('report', (e) => e.fields.update_status === 'downloading');
    const done = events.next('update', (e) => e.phase === 'done' && e.commit === r2.commit);
    const pin = await req(owner.token, 'PATCH', `/v7/device(${d1.id})`, { is_pinned_on__release: r2.id });
    expect(pin.statusCode, pin.body).toBe(200);
    const dl = await downloading;
    expect(dl.fields.download_progress).toEqual(expect.any(Number));
    expect(JSON.stringify(dl.fields.apps)).toContain(r2.commit);
    await done;
    await eventually(async () => {
      const d = await deviceRow(config.uuid);
      return d?.is_running__release === r2.id && d.update_status === 'done' ? d : undefined;
    }, 'is_running__release = r2');
    const installs = await t.db.query<{ status: string }>(
      `SELECT ii.status FROM image_install ii JOIN image__is_part_of__release ri ON ri.image = ii.installs__image
        WHERE ii.device = $1 AND ri.is_part_of__release = $2`,
      [d1.id, r2.id],
    );
    expect(installs.rows.map((r) => r.status)).toEqual(['Running', 'Running']);
  });
});

describe('the agent on the cloud link', () => {
  const action = (path: string, body: object) => req(owner.token, 'POST', `/supervisor/${path}`, body);

  it('answers a reboot over the link, drops the link and comes back online', async () => {
    const { events, config, agent } = await runAgent();
    await events.next('link', (e) => e.up);
    await eventually(async () => (await deviceRow(config.uuid))?.is_online === true, 'is_online');
    const down = events.next('link', (e) => !e.up);
    const back = events.next('power', (e) => e.kind === 'back');
    const res = await action('v1/reboot', { uuid: config.uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Data: 'OK', Error: null });
    await down;
    await back;
    await events.next('link', (e) => e.up);
    expect(events.all.filter((e) => e.type === 'power').map((e) => (e as { kind: string }).kind)).toEqual(['reboot', 'back']);
    expect((agent.device as Device).linkUp).toBe(true);
    await eventually(async () => (await deviceRow(config.uuid))?.is_online === true, 'is_online again');
  });

  it('answers 423 while the update lock file exists, and obeys with force', async () => {
    const lock = join(dir, `updates-${hex(4)}.lock`);
    const { events, config } = await runAgent({ updateLockPath: lock });
    await events.next('link', (e) => e.up);
    await eventually(async () => (await deviceRow(config.uuid))?.is_online === true, 'is_online');
    writeFileSync(lock, '');
    const locked = await action('v1/shutdown', { uuid: config.uuid });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toEqual({ Data: null, Error: 'Updates are locked' });
    expect(events.all.some((e) => e.type === 'power')).toBe(false);
    const blink = await action('v1/blink', { uuid: config.uuid });
    expect(blink.statusCode).toBe(200);
    const forced = await action('v1/reboot', { uuid: config.uuid, data: { force: true } });
    expect(forced.statusCode, forced.body).toBe(200);
    await events.next('power', (e) => e.kind === 'reboot');
  });
});

describe('the simulator', () => {
  it('brings N virtual devices online with locations, and updates them all to a new fleet release', async () => {
    const simFleet = await createFleet(t.app, t.db, owner, 'SimulatedFleet');
    const key = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: simFleet, roles: ['provisioning-api-key'] })).json();
    const count = 25;
    const sim = await startSimulation({
      api: apiUrl,
      provisioningKey: key,
      count,
      locations: true,
      seed: 7,
      pollIntervalMs: 1_000,
      rampMs: 200,
      downloadMs: [200, 600],
      applyMs: [50, 150],
      log: () => {},
    });
    try {
      expect(sim.fleetId).toBe(simFleet);
      expect(sim.deviceType).toBe('raspberrypi3');
      await eventually(async () => {
        const r = await row<{ n: string }>(t.db, 'SELECT count(*) AS n FROM device WHERE belongs_to__application = $1 AND is_online AND latitude IS NOT NULL', [simFleet]);
        return Number(r!.n) === count;
      }, 'every simulated device online with a location');
      expect(sim.stats()).toMatchObject({ devices: count, online: count, linked: count });

      const commit = hex();
      const release = (await t.db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status) VALUES ($1, $2, 'success') RETURNING id`, [simFleet, commit])).rows[0]!.id;
      const service = (await t.db.query<{ id: number }>('INSERT INTO service (application, service_name) VALUES ($1, $2) RETURNING id', [simFleet, 'main'])).rows[0]!.id;
      const image = (await t.db.query<{ id: number }>(`INSERT INTO image (is_a_build_of__service, status, is_stored_at__image_location) VALUES ($1, 'success', 'registry.test/v2/sim@sha256:1') RETURNING id`, [service])).rows[0]!.id;
      await t.db.query('INSERT INTO image__is_part_of__release (image, is_part_of__release) VALUES ($1, $2)', [image, release]);
      // Through the API, so the target-state caches hear of it.
      const target = await req(owner.token, 'PATCH', `/v7/application(${simFleet})`, { should_be_running__release: release, should_track_latest_release: false });
      expect(target.statusCode, target.body).toBe(200);
      await eventually(async () => {
        const r = await row<{ n: string }>(t.db, 'SELECT count(*) AS n FROM device WHERE belongs_to__application = $1 AND is_running__release = $2', [simFleet, release]);
        return Number(r!.n) === count;
      }, 'every simulated device running the new release', 25_000);
    } finally {
      await sim.stop();
    }
  });
});
