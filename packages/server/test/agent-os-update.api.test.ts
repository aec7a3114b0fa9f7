import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeConfig, startAgent, startSimulation, type RunningAgent, type Simulation } from '@flotilla/agent';
import { OS_UPDATE_DEVICE_STATUS, OS_UPDATE_START_FAILED } from '@flotilla/model';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from './harness.js';
import { createFleet, deviceTypeId, giveFleetRole, insertDevice, requester, row } from './support/fleet-helpers.js';
import { AgentEvents } from './support/agent-events.js';
import { waitFor as eventually } from './support/wait-for.js';

// Issue 17 item 4, host OS: balena-sdk's `device.startOsUpdate` through the actions service
// against a simulated device and a real agent (`startAgent`, engine none) with a tiny shell
// OS update hook; the server's refusals ('Cannot start the update process: …') with nothing
// changed: offline, downgrade, a version the catalogue does not offer the type, an observer,
// another organization's device, a device whose agent has no hook.

let t: TestApp;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let observer: SignedUpUser;
let stranger: SignedUpUser;
let fleet: number;
let provKey: string;
let dir: string;
let simulation: Simulation | undefined;
const agents: RunningAgent[] = [];

type Sdk = ReturnType<typeof sdkClient>;

/** balena-sdk sends device actions to `https://actions.<deviceUrlsBase>`: routed to this server's actions service. */
async function sdkFor(token: string): Promise<Sdk> {
  const s = sdkClient(apiUrl);
  await s.auth.loginWithToken(token);
  s.interceptors.push({
    request: (opts: { url?: string }) => {
      if (typeof opts.url === 'string' && opts.url.startsWith('https://actions.')) opts.url = opts.url.replace(/^https:\/\/actions\.[^/]+/, `${apiUrl}/actions`);
      return opts;
    },
  } as never);
  return s;
}

const post = (token: string, uuid: string, target: string, version: 'v1' | 'v2' = 'v2') =>
  fetch(`${apiUrl}/actions/${version}/${uuid}/resinhup`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ parameters: { target_version: target } }),
  });

const hostRelease = async (uuid: string) => (await row<{ r: number | null }>(t.db, 'SELECT should_be_operated_by__release AS r FROM device WHERE uuid = $1', [uuid]))!.r;
const catalogueRelease = async (rawVersion: string) =>
  (await row<{ id: number }>(t.db, `SELECT r.id FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE a.slug = 'balena_os/raspberrypi3' AND r.raw_version = $1`, [rawVersion]))!.id;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-os-update-'));
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  req = requester(t.app);
  [owner, observer, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  fleet = await createFleet(t.app, t.db, owner, 'OsUpdateFleet');
  await giveFleetRole(t.db, owner.orgId, fleet, observer, 'observer');
  provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
}, 60_000);

afterAll(async () => {
  await simulation?.stop();
  for (const a of agents) await a.stop();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a simulated device', () => {
  let uuid: string;
  let variant: string;

  beforeAll(async () => {
    simulation = await startSimulation({
      api: apiUrl,
      provisioningKey: provKey,
      count: 1,
      fleetId: fleet,
      deviceType: 'raspberrypi3',
      seed: 17,
      pollIntervalMs: 1_000,
      osUpdateMs: [6_000, 6_500],
      rebootOfflineMs: [500, 800],
      logs: false,
      log: () => {},
    });
    const sim = simulation.devices[0]!;
    uuid = sim.uuid;
    await eventually(async () => sim.linkUp && (await row<{ is_online: boolean; os_version: string | null }>(t.db, 'SELECT is_online, os_version FROM device WHERE uuid = $1', [uuid]))?.os_version, 'the simulated device online', 30_000);
    variant = (await row<{ os_variant: string }>(t.db, 'SELECT os_variant FROM device WHERE uuid = $1', [uuid]))!.os_variant;
  }, 60_000);

  it('refuses a downgrade, a version the catalogue does not offer its type, an observer and a stranger, changing nothing', async () => {
    const before = await hostRelease(uuid);
    const downgrade = await post(owner.token, uuid, `5.3.21+rev0.${variant}`);
    expect(downgrade.status).toBe(400);
    expect(await downgrade.text()).toContain(`${OS_UPDATE_START_FAILED}: OS downgrades are not allowed`);
    const unknown = await post(owner.token, uuid, `7.0.0+rev0.${variant}`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain(`${OS_UPDATE_START_FAILED}: OS version 7.0.0+rev0.${variant} is not available for this device type`);
    const byObserver = await post(observer.token, uuid, `6.1.0+rev0.${variant}`);
    expect(byObserver.status).toBe(403);
    expect(await byObserver.text()).toContain(`${OS_UPDATE_START_FAILED}: you are not allowed to update this device`);
    const byStranger = await post(stranger.token, uuid, `6.1.0+rev0.${variant}`);
    expect(byStranger.status).toBe(404);
    expect(await hostRelease(uuid)).toBe(before);
    expect((await row<{ os_version: string }>(t.db, 'SELECT os_version FROM device WHERE uuid = $1', [uuid]))!.os_version).toBe('balenaOS 6.0.10');
  });

  it('starts through balena-sdk: triggered, the host OS release set, progress reported, then a reboot and the new os_version', async () => {
    const sdk = await sdkFor(owner.token);
    const target = `6.1.0+rev0.${variant}`;
    const result = await sdk.models.device.startOsUpdate(uuid, target);
    expect(result).toMatchObject({ status: 'triggered', parameters: { target_version: target } });
    expect(await hostRelease(uuid)).toBe(await catalogueRelease(target));
    // While it installs: the device's status, step and percentage.
    const during = await eventually(
      async () => {
        const r = await row<{ status: string; provisioning_progress: number | null; provisioning_state: string | null }>(t.db, 'SELECT status, provisioning_progress, provisioning_state FROM device WHERE uuid = $1', [uuid]);
        return r?.status === OS_UPDATE_DEVICE_STATUS && r.provisioning_progress !== null && r;
      },
      'progress of the OS update',
      20_000,
    );
    expect(during.provisioning_state).toMatch(/host OS|boot partition/);
    // A second start while it runs is refused by the device, and the release stays.
    const again = await post(owner.token, uuid, target);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already under way');
    expect(await hostRelease(uuid)).toBe(await catalogueRelease(target));
    // After the reboot: the new version, the progress cleared.
    const after = await eventually(
      async () => {
        const r = await row<{ os_version: string; provisioning_progress: number | null; is_online: boolean }>(t.db, 'SELECT os_version, provisioning_progress, is_online FROM device WHERE uuid = $1', [uuid]);
        return r?.os_version === 'balenaOS 6.1.0+rev0' && r.provisioning_progress === null && r.is_online && r;
      },
      'the new os_version after the reboot',
      30_000,
    );
    expect(after.os_version).toBe('balenaOS 6.1.0+rev0');
    // Now up to date: the same version is refused.
    const same = await post(owner.token, uuid, target);
    expect(same.status).toBe(400);
    expect(await same.text()).toContain(`${OS_UPDATE_START_FAILED}: the device already runs this version`);
  }, 90_000);
});

describe('devices the server or the agent refuse', () => {
  it("refuses an offline device and another organization's device, changing nothing", async () => {
    const type = await deviceTypeId(t.db, 'raspberrypi3');
    const offline = await insertDevice(t.db, fleet, type, { os_version: 'balenaOS 6.0.10', os_variant: 'prod', is_online: false });
    const offlineUuid = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM device WHERE id = $1', [offline]))!.uuid;
    // v1 as balena-sdk sends it with runDetached: false.
    const res = await post(owner.token, offlineUuid, '6.1.0+rev0.prod', 'v1');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`${OS_UPDATE_START_FAILED}: device must be online`);
    expect(await hostRelease(offlineUuid)).toBeNull();

    const theirFleet = await createFleet(t.app, t.db, stranger, 'TheirFleet');
    const theirs = await insertDevice(t.db, theirFleet, type, { os_version: 'balenaOS 6.0.10', os_variant: 'prod', is_online: true });
    const theirUuid = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM device WHERE id = $1', [theirs]))!.uuid;
    const foreign = await post(owner.token, theirUuid, '6.1.0+rev0.prod');
    expect(foreign.status).toBe(404);
    expect(await hostRelease(theirUuid)).toBeNull();
  });

  it('refuses a real agent without an OS update hook with its reason, and puts the host OS release back', async () => {
    const { config } = normalizeConfig({ apiEndpoint: apiUrl, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000, osVersion: 'balenaOS 6.0.10', osVariant: 'prod' });
    const agent = await startAgent({ config, log: () => {}, reportDebounceMs: 50 });
    agents.push(agent);
    await eventually(async () => agent.device.linkUp && (await row<{ os_version: string | null }>(t.db, 'SELECT os_version FROM device WHERE uuid = $1', [config.uuid]))?.os_version === 'balenaOS 6.0.10', 'the agent online', 30_000);
    const res = await post(owner.token, config.uuid, '6.1.0+rev0.prod');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`${OS_UPDATE_START_FAILED}: this device cannot update its host OS: its agent runs without an OS update hook`);
    expect(await hostRelease(config.uuid)).toBeNull();
  }, 60_000);

  it('updates a real agent with a shell OS update hook: progress lines, a reboot, the new os_version kept in config.json', async () => {
    const hook = join(dir, 'os-update.sh');
    const got = join(dir, 'hook-args.txt');
    writeFileSync(hook, `#!/bin/sh\necho "$1|$FLOTILLA_OS_UPDATE_TARGET|$FLOTILLA_OS_UPDATE_KIND" > ${got}\necho "progress 10 Downloading"\nsleep 0.3\necho "progress 40 Downloading"\nsleep 0.3\necho "progress 90 Writing the image"\necho "version balenaOS 6.1.0"\n`);
    chmodSync(hook, 0o755);
    const configPath = join(dir, 'config.json');
    const { config } = normalizeConfig({ apiEndpoint: apiUrl, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000, osVersion: 'balenaOS 6.0.10', osVariant: 'prod' });
    const events = new AgentEvents(60_000);
    const agent = await startAgent({ config, configPath, osUpdateHook: hook, log: () => {}, onEvent: events.push, reportDebounceMs: 50, rebootOfflineMs: 500 });
    agents.push(agent);
    await eventually(async () => agent.device.linkUp && (await row<{ os_version: string | null }>(t.db, 'SELECT os_version FROM device WHERE uuid = $1', [config.uuid]))?.os_version === 'balenaOS 6.0.10', 'the agent online', 30_000);
    const installed = events.next('os-update', (e) => e.phase === 'installed');
    const sdk = await sdkFor(owner.token);
    expect(await sdk.models.device.startOsUpdate(config.uuid, '6.1.0+rev0.prod')).toMatchObject({ status: 'triggered' });
    expect((await installed).osVersion).toBe('balenaOS 6.1.0');
    const progress = events.all.flatMap((e) => (e.type === 'os-update' && e.phase === 'progress' ? [e.progress] : []));
    expect(progress).toEqual(expect.arrayContaining([0, 10, 40, 90, 100]));
    expect(readFileSync(got, 'utf8').trim()).toBe('6.1.0+rev0|6.1.0+rev0.prod|balenahup');
    await eventually(
      async () => {
        const r = await row<{ os_version: string; provisioning_progress: number | null }>(t.db, 'SELECT os_version, provisioning_progress FROM device WHERE uuid = $1', [config.uuid]);
        return r?.os_version === 'balenaOS 6.1.0' && r.provisioning_progress === null;
      },
      'the new os_version after the reboot',
      30_000,
    );
    expect((JSON.parse(readFileSync(configPath, 'utf8')) as { osVersion?: string }).osVersion).toBe('balenaOS 6.1.0');
    expect(await hostRelease(config.uuid)).toBe(await catalogueRelease('6.1.0+rev0.prod'));
  }, 90_000);
});
