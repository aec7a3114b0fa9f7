import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_LABELS, normalizeConfig, startAgent, type AgentConfig, type RunningAgent } from '@flotilla/agent';
import { signUp, type SignedUpUser } from './harness.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { createFleet, hex, requester, row } from './support/fleet-helpers.js';
import { startRegistryServer, type RegistryServer } from './support/registry.js';
import { testEngine } from './support/test-engine.js';
import { AgentEvents } from './support/agent-events.js';
import { apiWriter, waitFor as eventually } from './support/wait-for.js';

// `flotilla-agent run --engine podman` (issue 14 item 3): two real agents of one fleet on
// the run's one Podman engine pull the release's images from a registry, run one container
// per service (env, labels, volumes), report Running, replace only what a new release
// changed, wait for the update lock, act on real containers over the cloud link, purge the
// data, and adopt their containers when they restart.
//
// The images live in Flotilla's embedded registry: pushed by the fleet's owner, finalized
// with their digest as `balena deploy` does, and pulled by each agent through the engine
// with its device credentials (d_<uuid> + device key → /auth/v1/token).

const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `agent-${hex(4)}`;
const labels = { [TEST_LABEL]: testId };

let t: RegistryServer;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let fleet: number;
let provKey: string;
let dir: string;
const local: Record<string, string> = {};
type Release = Awaited<ReturnType<typeof insertRelease>>;
let r1: Release;
let r2: Release;
let r3: Release;
let r4: Release;
let r5: Release;
let r6: Release;

interface Agent {
  agent: RunningAgent;
  events: AgentEvents;
  config: AgentConfig;
  lock: string;
}
let a: Agent;
let b: Agent;
const agents: RunningAgent[] = [];


/** A test image FROM the offline base, with a file that makes its content unique. */
async function buildImage(name: string, content: string): Promise<string> {
  const ctx = join(dir, `ctx-${name}`);
  mkdirSync(ctx, { recursive: true });
  writeFileSync(join(ctx, 'version'), `${content}\n`);
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\nCOPY version /version\n`);
  const tag = `localhost/flotilla-agent-test/${testId}-${name}:1`;
  await podman(engine, ['build', '-q', '-t', tag, ctx]);
  return tag;
}

const SCRIPT = {
  // Appends a line to /data/boots on every start: purge must leave a fresh volume.
  main: 'trap "exit 0" TERM; echo boot >> /data/boots; while true; do /bin/busybox sleep 1; done',
  worker: 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done',
};

const composition = {
  version: '2.1',
  volumes: { data: {} },
  services: {
    main: {
      command: ['/bin/busybox', 'sh', '-c', SCRIPT.main],
      environment: { GREETING: 'from-compose', FROM_COMPOSE: 'yes' },
      labels,
      volumes: ['data:/data'],
      depends_on: ['worker'],
    },
    worker: { command: ['/bin/busybox', 'sh', '-c', SCRIPT.worker], labels, restart: 'always' },
    // Crashes on its first start; the engine restarts it (restart: always).
    flaky: { command: ['/bin/busybox', 'sh', '-c', `[ -f /crashed ] || { echo > /crashed; exit 3; }; ${SCRIPT.worker}`], labels },
    // Runs once and exits (restart: no).
    oneshot: { command: ['/bin/busybox', 'true'], labels, restart: 'no' },
  },
};

const api = apiWriter(() => req, () => owner.token);

/**
 * A release made as `balena deploy` makes it, through /v7: release, one image per service
 * (service name → local image tag) pushed to its location in the embedded registry, then
 * images and release finalized with their digests.
 */
async function insertRelease(images: Record<string, string | null>, comp: object = composition) {
  const commit = hex();
  const release = (await api<{ id: number }>('POST', '/v7/release', { belongs_to__application: fleet, commit, status: 'running', source: 'cloud', composition: comp })).id;
  const imageIds: Record<string, number> = {};
  const locations: Record<string, string> = {};
  for (const [name, tag] of Object.entries(images)) {
    const service =
      (await row<{ id: number }>(t.db, 'SELECT id FROM service WHERE application = $1 AND service_name = $2', [fleet, name]))?.id ??
      (await api<{ id: number }>('POST', '/v7/service', { application: fleet, service_name: name })).id;
    const image = await api<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
    const location = image.is_stored_at__image_location;
    let digest = `sha256:${hex(32)}`; // null: an image the registry never received (its pull fails)
    if (tag !== null) {
      const digestFile = join(dir, `digest-${hex(4)}`);
      await podman(engine, ['push', '-q', '--creds', `${owner.username}:${owner.token}`, '--digestfile', digestFile, tag, `${location}:latest`]);
      digest = readFileSync(digestFile, 'utf8').trim();
    }
    await api('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release });
    await api('PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: digest });
    imageIds[name] = image.id;
    locations[name] = `${location}@${digest}`;
  }
  await api('PATCH', `/v7/release(${release})`, { status: 'success' });
  return { id: release, commit, imageIds, locations };
}

async function pinFleet(release: number) {
  const res = await req(owner.token, 'PATCH', `/v7/application(${fleet})`, { should_be_running__release: release, should_track_latest_release: false });
  expect(res.statusCode, res.body).toBe(200);
}

async function runAgent(config?: AgentConfig): Promise<Agent> {
  const lock = config?.updateLockPath ?? join(dir, `lock-${hex(4)}`);
  const cfg =
    config ?? normalizeConfig({ apiEndpoint: apiUrl, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000, updateLockPath: lock }).config;
  const events = new AgentEvents(60_000);
  const agent = await startAgent({
    config: cfg,
    engine: 'podman',
    engineEnv: { DOCKER_HOST: engine.dockerHost },
    log: () => {},
    onEvent: events.push,
    reportDebounceMs: 50,
    stopTimeoutS: 2,
    lockRetryMs: 300,
    statusIntervalMs: 500,
  });
  agents.push(agent);
  return { agent, events, config: cfg, lock };
}

const mine = (uuid: string) => docker.listContainers({ all: true, filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } });
async function containersBy(uuid: string) {
  const out: Record<string, Docker.ContainerInfo> = {};
  for (const c of await mine(uuid)) out[c.Labels[CONTAINER_LABELS.serviceName]!] = c;
  return out;
}
const deviceRow = (uuid: string) => row<{ id: number; is_running__release: number | null }>(t.db, 'SELECT id, is_running__release FROM device WHERE uuid = $1', [uuid]);
const runs = (agent: Agent, release: number) =>
  eventually(async () => (await deviceRow(agent.config.uuid))?.is_running__release === release, `${agent.config.uuid.slice(0, 7)} running release ${release}`);
const action = (path: string, body: object) => req(owner.token, 'POST', `/supervisor/${path}`, body);
/** The next finished apply of `release` (r4 has a one-shot service, so the server never counts it as running). */
const applied = (dev: Agent, release: Release) => dev.events.next('update', (e) => e.phase === 'done' && e.commit === release.commit);
const startedAt = async (id: string) => (await docker.getContainer(id).inspect()).State.StartedAt;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-agent-engine-'));
  t = await startRegistryServer({ dir: join(dir, 'registry') });
  apiUrl = t.url;
  req = requester(t.app);
  owner = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, owner, 'EngineFleet');
  provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  const env = await req(owner.token, 'POST', '/v7/application_environment_variable', { application: fleet, name: 'GREETING', value: 'from-fleet' });
  expect(env.statusCode, env.body).toBe(201);
  local.main1 = await buildImage('main1', 'main 1');
  local.worker1 = await buildImage('worker1', 'worker 1');
  local.worker2 = await buildImage('worker2', 'worker 2');
  // Every release up front (the fleet is pinned, so only the pinned one is the target); then
  // the build tags go, so the engine holds only what the agents pull, as on a device.
  r1 = await insertRelease({ main: local.main1, worker: local.worker1 });
  r2 = await insertRelease({ main: local.main1, worker: local.worker2 });
  r3 = await insertRelease({ main: local.main1, worker: local.worker1 });
  r4 = await insertRelease({ main: local.main1, worker: local.worker1, flaky: local.worker1, oneshot: local.worker1 });
  // A new worker image that cannot be pulled: with the default strategy (r5) and kill-then-download (r6).
  r5 = await insertRelease({ main: local.main1, worker: null, flaky: local.worker1, oneshot: local.worker1 });
  const killFirst = { ...composition.services.worker, labels: { ...labels, 'io.balena.update.strategy': 'kill-then-download' } };
  r6 = await insertRelease({ main: local.main1, worker: null, flaky: local.worker1, oneshot: local.worker1 }, { ...composition, services: { ...composition.services, worker: killFirst } });
  await podman(engine, ['rmi', local.main1, local.worker1, local.worker2]);
}, 180_000);

afterAll(async () => {
  await Promise.all(agents.splice(0).map((x) => x.stop()));
  await removeLabelled(engine, testId);
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('flotilla-agent run --engine podman', () => {
  it('two devices on one engine pull and run the release: their own containers, env and labels; they report Running', async () => {
    await pinFleet(r1.id);
    a = await runAgent();
    b = await runAgent();
    const downloading = a.events.next('update', (e) => e.phase === 'downloading' && e.commit === r1.commit);
    await Promise.all([runs(a, r1.id), runs(b, r1.id)]);
    await downloading;

    for (const dev of [a, b]) {
      const c = await containersBy(dev.config.uuid);
      expect(Object.keys(c).sort()).toEqual(['main', 'worker']);
      for (const [name, info] of Object.entries(c)) {
        expect(info.State).toBe('running');
        // Pulled from the embedded registry by digest, as the finalized release names it.
        expect(info.Image).toBe(r1.locations[name]);
        expect(info.Labels).toMatchObject({
          [TEST_LABEL]: testId,
          [CONTAINER_LABELS.deviceUuid]: dev.config.uuid,
          [CONTAINER_LABELS.serviceName]: name,
          [CONTAINER_LABELS.release]: r1.commit,
          [CONTAINER_LABELS.imageId]: String(r1.imageIds[name]),
          'io.balena.service-name': name,
        });
      }
      const main = await docker.getContainer(c.main!.Id).inspect();
      // Dialect §4.2: the fleet's variable wins over the composition's.
      expect(main.Config.Env).toEqual(expect.arrayContaining(['GREETING=from-fleet', 'FROM_COMPOSE=yes', `BALENA_DEVICE_UUID=${dev.config.uuid}`, 'BALENA_SERVICE_NAME=main']));
      expect(main.HostConfig.RestartPolicy?.Name).toBe('always');
      const volume = main.Mounts.find((m) => m.Destination === '/data');
      expect(volume?.Name).toBe(`${fleet}_data_${dev.config.uuid.slice(0, 12)}`);
      const installs = await t.db.query<{ status: string }>(
        `SELECT ii.status FROM image_install ii JOIN device d ON d.id = ii.device WHERE d.uuid = $1 AND ii.installs__image = ANY($2::int[])`,
        [dev.config.uuid, Object.values(r1.imageIds)],
      );
      expect(installs.rows.map((r) => r.status)).toEqual(['Running', 'Running']);
    }
    // One set per device: nothing shared.
    const ids = [...(await mine(a.config.uuid)), ...(await mine(b.config.uuid))].map((c) => c.Id);
    expect(new Set(ids).size).toBe(4);
  }, 90_000);

  it('a new release with one changed service replaces only that service and removes its old image', async () => {
    const before = { a: await containersBy(a.config.uuid), b: await containersBy(b.config.uuid) };
    expect(before.a.worker!.Image).toBe(r1.locations.worker);
    const oldWorkerImage = before.a.worker!.ImageID;
    await pinFleet(r2.id);
    await Promise.all([runs(a, r2.id), runs(b, r2.id)]);
    for (const [dev, prev] of [
      [a, before.a],
      [b, before.b],
    ] as const) {
      const now = await containersBy(dev.config.uuid);
      expect(now.main!.Id).toBe(prev.main!.Id);
      expect(await startedAt(now.main!.Id)).toBe(await startedAt(prev.main!.Id));
      expect(now.worker!.Id).not.toBe(prev.worker!.Id);
      expect(now.worker!.Labels[CONTAINER_LABELS.imageId]).toBe(String(r2.imageIds.worker));
      expect(now.worker!.State).toBe('running');
    }
    await eventually(async () => (await docker.getImage(oldWorkerImage).inspect().then(() => false, () => true)) || undefined, 'the old worker image removed');
  }, 90_000);

  it('an update lock defers the update until it is forced, or until the lock goes', async () => {
    writeFileSync(a.lock, '');
    writeFileSync(b.lock, '');
    const workerA = (await containersBy(a.config.uuid)).worker!.Id;
    const deferredA = a.events.next('update', (e) => e.phase === 'locked');
    const deferredB = b.events.next('update', (e) => e.phase === 'locked');
    await pinFleet(r3.id);
    await Promise.all([deferredA, deferredB]);
    expect((await containersBy(a.config.uuid)).worker!.Id).toBe(workerA);
    expect((await deviceRow(a.config.uuid))?.is_running__release).toBe(r2.id);

    const forced = await action('v1/update', { uuid: a.config.uuid, data: { force: true } });
    expect(forced.statusCode, forced.body).toBe(200);
    await runs(a, r3.id);
    expect((await containersBy(a.config.uuid)).worker!.Id).not.toBe(workerA);
    expect((await deviceRow(b.config.uuid))?.is_running__release).toBe(r2.id);

    unlinkSync(b.lock);
    await runs(b, r3.id);
    unlinkSync(a.lock);
  }, 90_000);

  it("restart-service through the server's action route restarts the real container", async () => {
    const main = (await containersBy(a.config.uuid)).main!;
    const before = await startedAt(main.Id);
    const res = await action(`v2/applications/${fleet}/restart-service`, { uuid: a.config.uuid, data: { serviceName: 'main' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await startedAt(main.Id)).not.toBe(before);
    expect((await containersBy(a.config.uuid)).main!.Id).toBe(main.Id);
    const stopped = await action(`v2/applications/${fleet}/stop-service`, { uuid: a.config.uuid, data: { serviceName: 'worker' } });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect((await containersBy(a.config.uuid)).worker!.State).toBe('exited');
    await eventually(async () => {
      const r = await row<{ status: string }>(t.db, 'SELECT ii.status FROM image_install ii JOIN device d ON d.id = ii.device WHERE d.uuid = $1 AND ii.installs__image = $2', [
        a.config.uuid,
        r3.imageIds.worker,
      ]);
      return r?.status === 'Exited';
    }, 'the stopped worker reported Exited');
    const started = await action(`v2/applications/${fleet}/start-service`, { uuid: a.config.uuid, data: { serviceName: 'worker' } });
    expect(started.statusCode, started.body).toBe(200);
    expect((await containersBy(a.config.uuid)).worker!.State).toBe('running');
  }, 90_000);

  it('purge removes the volume and the data in it, and the services come back', async () => {
    const volume = `${fleet}_data_${a.config.uuid.slice(0, 12)}`;
    const boots = async () => readFileSync(join((await docker.getVolume(volume).inspect()).Mountpoint, 'boots'), 'utf8').trim().split('\n').length;
    expect(await boots()).toBe(2); // started, then restarted
    const mainBefore = (await containersBy(a.config.uuid)).main!.Id;
    const res = await action('v1/purge', { uuid: a.config.uuid });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(async () => {
      const c = await containersBy(a.config.uuid);
      return c.main && c.main.Id !== mainBefore && c.main.State === 'running' && c.worker?.State === 'running';
    }, 'the services recreated after purge');
    expect(await eventually(async () => (await boots().catch(() => 0)) || undefined, 'the new volume written')).toBe(1);
    await runs(a, r3.id);
  }, 90_000);

  it('an agent restart leaves its containers running with the same ids; power actions are refused without --allow-power', async () => {
    const before = await containersBy(a.config.uuid);
    const config = a.agent.config();
    await a.agent.stop();
    agents.splice(agents.indexOf(a.agent), 1);
    a = await runAgent(config);
    await a.events.next('update', (e) => e.phase === 'done' && e.commit === r3.commit);
    const after = await containersBy(a.config.uuid);
    for (const name of ['main', 'worker']) {
      expect(after[name]!.Id).toBe(before[name]!.Id);
      expect(await startedAt(after[name]!.Id)).toBe(await startedAt(before[name]!.Id));
    }
    // Until the server has the new agent's cloud link, the action answers 404 (no online device).
    const reboot = await eventually(async () => {
      const res = await action('v1/reboot', { uuid: a.config.uuid });
      return res.statusCode === 404 ? undefined : res;
    }, 'the reboot action reaching the restarted agent');
    expect(reboot.statusCode).toBe(403);
    expect(reboot.json()).toEqual({ Data: null, Error: 'reboot refused: this agent runs on a real host and was started without --allow-power' });
  }, 90_000);

  it('a crashed service is restarted by its restart policy, a finished one reports Exited, and adding services leaves the others running', async () => {
    const before = await containersBy(b.config.uuid);
    await pinFleet(r4.id);
    const status = (image: number) =>
      row<{ status: string }>(t.db, 'SELECT ii.status FROM image_install ii JOIN device d ON d.id = ii.device WHERE d.uuid = $1 AND ii.installs__image = $2', [b.config.uuid, image]);
    await eventually(async () => (await status(r4.imageIds.oneshot!))?.status === 'Exited', 'oneshot reported Exited');
    await eventually(async () => (await status(r4.imageIds.flaky!))?.status === 'Running', 'flaky reported Running');
    const now = await containersBy(b.config.uuid);
    const flaky = await docker.getContainer(now.flaky!.Id).inspect();
    expect(flaky.RestartCount).toBeGreaterThanOrEqual(1);
    expect(flaky.State.Running).toBe(true);
    expect(now.main!.Id).toBe(before.main!.Id);
    expect(now.worker!.Id).toBe(before.worker!.Id);
  }, 90_000);

  it('download-then-kill keeps the old container when the new image cannot be pulled; kill-then-download stops it first', async () => {
    const before = { a: await containersBy(a.config.uuid), b: await containersBy(b.config.uuid) };
    const pin = async (dev: Agent, release: number | null) => {
      const id = (await deviceRow(dev.config.uuid))!.id;
      const res = await req(owner.token, 'PATCH', `/v7/device(${id})`, { is_pinned_on__release: release });
      expect(res.statusCode, res.body).toBe(200);
    };
    const failedA = a.events.next('update', (e) => e.phase === 'failed' && e.commit === r5.commit);
    const failedB = b.events.next('update', (e) => e.phase === 'failed' && e.commit === r6.commit);
    await pin(a, r5.id);
    await pin(b, r6.id);
    await Promise.all([failedA, failedB]);
    const afterA = await containersBy(a.config.uuid);
    expect(afterA.worker?.Id).toBe(before.a.worker!.Id);
    expect(afterA.worker?.State).toBe('running');
    const afterB = await containersBy(b.config.uuid);
    expect(afterB.worker).toBeUndefined();
    expect(afterB.main!.Id).toBe(before.b.main!.Id);
    // Back on the fleet's release: B's worker comes back, A's never went.
    const back = Promise.all([applied(a, r4), applied(b, r4)]);
    await pin(a, null);
    await pin(b, null);
    await back;
    expect((await containersBy(b.config.uuid)).worker?.State).toBe('running');
    expect((await containersBy(a.config.uuid)).worker!.Id).toBe(before.a.worker!.Id);
  }, 90_000);

  it('the flotilla-agent binary picks the engine from FLOTILLA_AGENT_ENGINE and DOCKER_HOST, and leaves its containers running when it stops', async () => {
    const uuid = hex();
    const configPath = join(dir, 'bin-config.json');
    writeFileSync(configPath, JSON.stringify({ apiEndpoint: apiUrl, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, uuid, appUpdatePollInterval: 1_000 }));
    const bin = join(import.meta.dirname, '../../agent/bin/flotilla-agent.mjs');
    const child = spawn(process.execPath, [bin, 'run', '--config', configPath], {
      env: { ...process.env, FLOTILLA_AGENT_ENGINE: 'podman', DOCKER_HOST: engine.dockerHost },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const running = await eventually(async () => {
        const c = await containersBy(uuid);
        return c.main?.State === 'running' && c.worker?.State === 'running' ? c : undefined;
        // tsx compiles the agent from source at start: slow while other files load the machine.
      }, 'the binary agent running the release', 120_000);
      expect(running.main!.Labels[CONTAINER_LABELS.release]).toBe(r4.commit);
      expect(output).toContain(`container engine (podman) at ${engine.dockerHost}`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect((await containersBy(uuid)).main!.State).toBe('running');
  }, 180_000);
});
