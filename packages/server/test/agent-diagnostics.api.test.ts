import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_LABELS, normalizeConfig, startAgent, startSimulation, type RunningAgent, type Simulation } from '@flotilla/agent';
import { targetStateVersionFor, type ActionRun, type HealthCheckOutput } from '@flotilla/model';
import { sdkClient, signUp, type SignedUpUser } from './harness.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { createFleet, giveFleetRole, hex, requester, row } from './support/fleet-helpers.js';
import { startRegistryServer, type RegistryServer } from './support/registry.js';
import { testEngine } from './support/test-engine.js';
import { AgentEvents } from './support/agent-events.js';
import { apiWriter, waitFor as eventually } from './support/wait-for.js';

// Issue 15 item 3 against a real agent (`flotilla-agent run --engine podman`) running a real
// release on the run's Podman engine: health checks and diagnose through the actions
// service and the cloud link, the supervisor's current state from the agent and its target
// state for a user, both through balena-sdk; and a simulated device answering the same.

const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `agent-diag-${hex(4)}`;
const labels = { [TEST_LABEL]: testId };

let t: RegistryServer;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let fleet: number;
let provKey: string;
let dir: string;
let agent: RunningAgent;
let uuid: string;
let commit: string;
let simulation: Simulation | undefined;
const events = new AgentEvents(120_000);

const api = apiWriter(() => req, () => owner.token);

const composition = {
  version: '2.1',
  services: {
    main: { command: ['/bin/busybox', 'sh', '-c', 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done'], labels },
    // Exits at once and the engine restarts it for ever: a restart loop.
    crashy: { command: ['/bin/busybox', 'sh', '-c', 'echo crashing; exit 1'], restart: 'always', labels },
  },
};

async function deploy(tag: string): Promise<{ id: number; commit: string }> {
  const c = hex();
  const release = (await api<{ id: number }>('POST', '/v7/release', { belongs_to__application: fleet, commit: c, status: 'running', source: 'cloud', composition })).id;
  for (const name of Object.keys(composition.services)) {
    const service = (await api<{ id: number }>('POST', '/v7/service', { application: fleet, service_name: name })).id;
    const image = await api<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
    const digestFile = join(dir, `digest-${hex(4)}`);
    await podman(engine, ['push', '-q', '--creds', `${owner.username}:${owner.token}`, '--digestfile', digestFile, tag, `${image.is_stored_at__image_location}:latest`]);
    await api('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release });
    await api('PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: readFileSync(digestFile, 'utf8').trim() });
  }
  await api('PATCH', `/v7/release(${release})`, { status: 'success' });
  return { id: release, commit: c };
}

/** Starts `action` on device `device` and waits until the run ends; returns the finished run. */
async function runAction<T = unknown>(device: string, action: 'checks' | 'diagnose', token = owner.token): Promise<ActionRun<T>> {
  const started = await fetch(`${t.url}/actions/v1/${device}/${action}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"params":{}}' });
  expect(started.status, await started.clone().text()).toBe(202);
  expect(((await started.json()) as ActionRun).status).toBe('in_progress');
  return eventually(
    async () => {
      const res = await fetch(`${t.url}/actions/v1/${device}/${action}`, { headers: { authorization: `Bearer ${token}` } });
      const run = (await res.json()) as ActionRun<T>;
      return run.status !== 'in_progress' && run;
    },
    `${action} to finish`,
    90_000,
  );
}

async function sdkFor(token: string) {
  const s = sdkClient(t.url);
  await s.auth.loginWithToken(token);
  return s;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-agent-diag-'));
  t = await startRegistryServer({ dir: join(dir, 'registry') });
  req = requester(t.app);
  owner = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, owner, 'DiagFleet');
  const ctx = join(dir, 'ctx');
  mkdirSync(ctx);
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\n`);
  mkdirSync(join(dir, 'agent'));
  const tag = `localhost/flotilla-agent-test/${testId}:1`;
  await podman(engine, ['build', '-q', '-t', tag, ctx]);
  const release = await deploy(tag);
  commit = release.commit;
  await podman(engine, ['rmi', tag]);
  provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  const { config } = normalizeConfig({ apiEndpoint: t.url, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000 });
  uuid = config.uuid;
  const applied = events.next('update', (e) => e.phase === 'done' && e.commit === commit);
  agent = await startAgent({
    config,
    configPath: join(dir, 'agent', 'config.json'),
    engine: 'podman',
    engineEnv: { DOCKER_HOST: engine.dockerHost },
    log: () => {},
    onEvent: events.push,
    reportDebounceMs: 50,
    stopTimeoutS: 2,
    statusIntervalMs: 500,
  });
  await applied;
  await eventually(async () => (await row<{ is_online: boolean }>(t.db, 'SELECT is_online FROM device WHERE uuid = $1', [uuid]))?.is_online, 'the cloud link');
}, 180_000);

afterAll(async () => {
  await simulation?.stop();
  await agent?.stop();
  await removeLabelled(engine, testId);
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('health checks and diagnose on a real agent', () => {
  it("runs the real checks: in_progress, then done with every check, the engine's passing with its version", async () => {
    const run = await runAction<HealthCheckOutput>(uuid, 'checks');
    expect(run.status, run.error ?? '').toBe('done');
    expect(run.error).toBeNull();
    const checks = run.stdout!.checks;
    expect(checks.map((c) => c.name)).toEqual([
      'check_container_engine',
      'check_localdiskspace',
      'check_memory',
      'check_timesync',
      'check_service_restarts',
      'check_networking',
      'check_under_voltage',
    ]);
    const version = (await docker.version()).Version;
    expect(checks[0]).toEqual({ name: 'check_container_engine', success: true, status: `The container engine answers (version ${version})` });
    // The agent polls every second and the server's clock is this machine's.
    expect(checks.find((c) => c.name === 'check_networking')?.success).toBe(true);
    expect(checks.find((c) => c.name === 'check_timesync')?.success).toBe(true);
    for (const c of checks) expect(c.status.length).toBeGreaterThan(10);
    expect(run.stdout!.diagnose_version).toBe('1.0.0');
    expect(Date.parse(run.lastRun!)).not.toBeNaN();
  }, 120_000);

  it('fails the restart-loop check for a service the engine keeps restarting, and names it', async () => {
    const crashy = await eventually(async () => {
      const [c] = await docker.listContainers({ all: true, filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`, `${CONTAINER_LABELS.serviceName}=crashy`] } });
      return c && (await docker.getContainer(c.Id).inspect()).RestartCount >= 3 && c;
    }, 'crashy restarted three times');
    expect(crashy.Labels[CONTAINER_LABELS.serviceName]).toBe('crashy');
    const run = await runAction<HealthCheckOutput>(uuid, 'checks');
    const check = run.stdout!.checks.find((c) => c.name === 'check_service_restarts')!;
    expect(check.success).toBe(false);
    expect(check.status).toMatch(/^Some services keep restarting: crashy \(\d+ restarts/);
    expect(check.status).not.toMatch(/main/);
  }, 120_000);

  it('diagnose gathers the engine version, the containers, disk, memory, network and the recent agent log; stderr apart', async () => {
    const run = await runAction<string>(uuid, 'diagnose');
    expect(run.status, run.error ?? '').toBe('done');
    const stdout = run.stdout!;
    expect(stdout).toContain((await docker.version()).Version);
    const names = (await docker.listContainers({ all: true, filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } })).map((c) => c.Names[0]!.replace(/^\//, ''));
    expect(names).toHaveLength(2);
    for (const name of names) expect(stdout).toContain(name);
    for (const s of ['container engine', 'containers', 'disk', 'memory', 'network', 'recent agent log']) expect(stdout).toContain(`=== ${s} ===`);
    expect(stdout).toMatch(/MemAvailable:/);
    expect(stdout).toMatch(/container engine \(podman\) at/);
    // What could not be gathered is the run's `error` (stderr), never a failed run.
    expect(run.error === null || typeof run.error === 'string').toBe(true);
  }, 120_000);
});

describe("the supervisor's state for the diagnostics page (balena-sdk)", () => {
  it("current state comes from the agent over the cloud link, with the supervisor's /v1/device fields", async () => {
    const sdk = await sdkFor(owner.token);
    const state = (await sdk.models.device.getSupervisorState(uuid)) as unknown as Record<string, unknown>;
    expect(state).toMatchObject({ status: 'Idle', commit, update_pending: false, update_downloaded: false, update_failed: false, supervisor_version: '14.0.0', api_port: null });
    expect(Object.keys(state).sort()).toEqual(
      ['api_port', 'commit', 'download_progress', 'ip_address', 'mac_address', 'os_version', 'status', 'supervisor_version', 'update_downloaded', 'update_failed', 'update_pending'].sort(),
    );
  });

  it('target state comes from the server in the version the supervisor needs (v3 from 13.0.0), to users who can read the device only', async () => {
    const device = (await row<{ id: number; supervisor_version: string }>(t.db, 'SELECT id, supervisor_version FROM device WHERE uuid = $1', [uuid]))!;
    expect(targetStateVersionFor(device.supervisor_version)).toBe(3);
    const sdk = await sdkFor(owner.token);
    const v3 = (await sdk.models.device.getSupervisorTargetState(uuid, 3)) as unknown as Record<string, { apps: Record<string, { releases?: Record<string, { services: Record<string, unknown> }> }> }>;
    const app = Object.values(v3[uuid]!.apps).find((a) => a.releases?.[commit]);
    expect(Object.keys(app!.releases![commit]!.services).sort()).toEqual(['crashy', 'main']);
    const v2 = (await sdk.models.device.getSupervisorTargetState(uuid, 2)) as unknown as { local: { apps: Record<string, { commit: string }> } };
    expect(v2.local.apps[String(fleet)]!.commit).toBe(commit);

    const observer = await signUp(t.app);
    await giveFleetRole(t.db, owner.orgId, fleet, observer, 'observer');
    expect(await (await sdkFor(observer.token)).models.device.getSupervisorTargetState(uuid, 3)).toEqual(v3);
    // …but an observer may not run diagnostics (resin.device.access_diagnostics is operator and up).
    const refused = await fetch(`${t.url}/actions/v1/${uuid}/checks`, { method: 'POST', headers: { authorization: `Bearer ${observer.token}` } });
    expect(refused.status).toBe(403);
    const stranger = await signUp(t.app);
    for (const v of [2, 3]) {
      const res = await fetch(`${t.url}/device/v${v}/${uuid}/state`, { headers: { authorization: `Bearer ${stranger.token}` } });
      expect(res.status).toBe(401);
    }
    await expect((await sdkFor(stranger.token)).models.device.getSupervisorState(uuid)).rejects.toThrow();
  });
});

describe('a simulated device', () => {
  it('answers health checks, diagnose and its supervisor state', async () => {
    simulation = await startSimulation({ api: t.url, provisioningKey: provKey, count: 1, fleetId: fleet, deviceType: 'raspberrypi3', seed: 7, pollIntervalMs: 1_000, log: () => {} });
    const sim = simulation.devices[0]!;
    await eventually(async () => sim.linkUp && (await row<{ is_online: boolean }>(t.db, 'SELECT is_online FROM device WHERE uuid = $1', [sim.uuid]))?.is_online, 'the simulated link');
    const checks = await runAction<HealthCheckOutput>(sim.uuid, 'checks');
    expect(checks.status).toBe('done');
    expect(checks.stdout!.checks).toHaveLength(7);
    const diagnose = await runAction<string>(sim.uuid, 'diagnose');
    expect(diagnose.stdout).toContain(`device: ${sim.uuid} (simulated)`);
    const state = (await (await sdkFor(owner.token)).models.device.getSupervisorState(sim.uuid)) as unknown as Record<string, unknown>;
    expect(state).toMatchObject({ supervisor_version: '14.0.0', api_port: null });
  }, 60_000);
});
