import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_LABELS, normalizeConfig, startAgent, startSimulation, type AgentConfig, type RunningAgent, type Simulation } from '@flotilla/agent';
import { sdkClient, signUp, type SignedUpUser } from './harness.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { createFleet, hex, requester, row } from './support/fleet-helpers.js';
import { startRegistryServer, type RegistryServer } from './support/registry.js';
import { testEngine } from './support/test-engine.js';
import { apiWriter, waitFor as eventually } from './support/wait-for.js';

// Log round trip (issue 15 item 1): a real `flotilla-agent run --engine podman` runs a release
// whose container writes numbered lines to stdout and stderr; the agent ships them with its
// own system lines over the gzip NDJSON log stream; balena-sdk's `logs.history` reads them
// back with the service's id, stdout/stderr and in order. A container restart and an agent
// restart send nothing twice. A simulated device's lines arrive the same way.

const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `agentlogs-${hex(4)}`;
const labels = { [TEST_LABEL]: testId };

let t: RegistryServer;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let fleet: number;
let provKey: string;
let dir: string;
let release: { id: number; commit: string; serviceIds: Record<string, number> };
let config: AgentConfig;
let cursorFile: string;
const agents: RunningAgent[] = [];
let sim: Simulation | undefined;
const sdk = () => {
  const s = sdkClient(t.url);
  return s.auth.loginWithToken(owner.token).then(() => s);
};

// Five numbered lines on each stream, then a tick a second until stopped.
const SCRIPT =
  'trap "exit 0" TERM; i=0; while [ $i -lt 5 ]; do i=$((i+1)); echo "out $i"; echo "err $i" >&2; done; n=0; while true; do n=$((n+1)); echo "tick $n"; /bin/busybox sleep 1; done';

async function buildImage(): Promise<string> {
  const ctx = join(dir, 'ctx');
  mkdirSync(ctx, { recursive: true });
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\nRUN ["/bin/busybox", "true"]\n`);
  const tag = `localhost/flotilla-agent-test/${testId}-logger:1`;
  await podman(engine, ['build', '-q', '-t', tag, ctx]);
  return tag;
}

const api = apiWriter(() => req, () => owner.token);

/** A one-service release made as `balena deploy` makes it: image pushed to the embedded registry, finalized with its digest. */
async function insertRelease(tag: string) {
  const commit = hex();
  const composition = { version: '2.1', services: { main: { command: ['/bin/busybox', 'sh', '-c', SCRIPT], labels, restart: 'always' } } };
  const rel = (await api<{ id: number }>('POST', '/v7/release', { belongs_to__application: fleet, commit, status: 'running', source: 'cloud', composition })).id;
  const service = (await api<{ id: number }>('POST', '/v7/service', { application: fleet, service_name: 'main' })).id;
  const image = await api<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
  const digestFile = join(dir, `digest-${hex(4)}`);
  await podman(engine, ['push', '-q', '--creds', `${owner.username}:${owner.token}`, '--digestfile', digestFile, tag, `${image.is_stored_at__image_location}:latest`]);
  const digest = readFileSync(digestFile, 'utf8').trim();
  await api('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: rel });
  await api('PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: digest });
  await api('PATCH', `/v7/release(${rel})`, { status: 'success' });
  return { id: rel, commit, serviceIds: { main: service } };
}

async function runAgent(cfg: AgentConfig): Promise<RunningAgent> {
  const agent = await startAgent({
    config: cfg,
    engine: 'podman',
    engineEnv: { DOCKER_HOST: engine.dockerHost },
    log: () => {},
    reportDebounceMs: 50,
    stopTimeoutS: 1,
    statusIntervalMs: 500,
    logs: { cursorFile, syncMs: 1_000 },
  });
  agents.push(agent);
  return agent;
}

type Line = { message: string; timestamp: number; isSystem: boolean; isStdErr: boolean; serviceId?: number };
/** The device's log through balena-sdk (empty until the device has registered). */
const history = async (uuid: string): Promise<Line[]> => {
  try {
    return (await (await sdk()).logs.history(uuid, { count: 'all' })) as unknown as Line[];
  } catch (err) {
    if ((err as { code?: string }).code === 'BalenaDeviceNotFound') return [];
    throw err;
  }
};
const count = (lines: Line[], message: string) => lines.filter((l) => l.message === message).length;
/** The tick numbers of the container's latest run (after its last "out 5"). */
const lastRunTicks = (lines: Line[]) =>
  lines
    .slice(lines.map((l) => l.message).lastIndexOf('out 5'))
    .filter((l) => l.message.startsWith('tick '))
    .map((l) => Number(l.message.slice(5)));
const mainContainer = async (uuid: string) =>
  (await docker.listContainers({ all: true, filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } })).find((c) => c.Labels[CONTAINER_LABELS.serviceName] === 'main');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-agent-logs-'));
  cursorFile = join(dir, 'log-cursors.json');
  t = await startRegistryServer();
  req = requester(t.app);
  owner = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, owner, 'LogsFleet');
  provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  const tag = await buildImage();
  release = await insertRelease(tag);
  await podman(engine, ['rmi', tag]);
  const pin = await req(owner.token, 'PATCH', `/v7/application(${fleet})`, { should_be_running__release: release.id, should_track_latest_release: false });
  expect(pin.statusCode, pin.body).toBe(200);
}, 180_000);

afterAll(async () => {
  await sim?.stop();
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  await removeLabelled(engine, testId);
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('flotilla-agent run ships its containers’ logs', () => {
  it('the container’s stdout and stderr lines reach logs.history with the service id, in order, after the install’s system lines', async () => {
    config = normalizeConfig({ apiEndpoint: t.url, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000, updateLockPath: join(dir, 'lock') }).config;
    await runAgent(config);
    const lines = await eventually(async () => {
      const h = await history(config.uuid);
      return h.filter((l) => !l.isSystem && /^(out|err) /.test(l.message)).length >= 10 && h.some((l) => l.message === 'tick 1') ? h : null;
    }, 'the container lines in the history');
    const serviceId = release.serviceIds.main;
    const out = lines.filter((l) => !l.isSystem && l.message.startsWith('out '));
    const err = lines.filter((l) => !l.isSystem && l.message.startsWith('err '));
    expect(out.map((l) => l.message)).toEqual(['out 1', 'out 2', 'out 3', 'out 4', 'out 5']);
    expect(err.map((l) => l.message)).toEqual(['err 1', 'err 2', 'err 3', 'err 4', 'err 5']);
    for (const l of out) expect(l).toMatchObject({ isStdErr: false, isSystem: false, serviceId });
    for (const l of err) expect(l).toMatchObject({ isStdErr: true, isSystem: false, serviceId });
    const system = lines.filter((l) => l.isSystem).map((l) => l.message);
    expect(system[0]).toBe('Agent starting');
    const downloading = system.findIndex((m) => m.startsWith('Downloading image '));
    const installing = system.findIndex((m) => m.startsWith("Installing service 'main "));
    const started = system.findIndex((m) => m.startsWith("Started service 'main "));
    expect(downloading).toBeGreaterThan(0);
    expect(installing).toBeGreaterThan(downloading);
    expect(started).toBeGreaterThan(installing);
    // The system lines carry no service id; the service's lines come after its start.
    expect(lines.filter((l) => l.isSystem).every((l) => l.serviceId === undefined)).toBe(true);
    expect(lines.indexOf(out[0]!)).toBeGreaterThan(lines.findIndex((l) => l.message.startsWith('Installing service')));
  }, 120_000);

  it('a container restart sends its new lines once and none of the old ones again', async () => {
    const before = await history(config.uuid);
    expect(count(before, 'out 1')).toBe(1);
    // A death within 3 s of the agent's own container work counts as its kill ("Killed service");
    // past that, as here, the service exited on its own ("Service exited").
    await new Promise((r) => setTimeout(r, 3_500));
    const c = await mainContainer(config.uuid);
    await docker.getContainer(c!.Id).restart({ t: 1 });
    const after = await eventually(async () => {
      const h = await history(config.uuid);
      return count(h, 'out 5') === 2 && count(h, 'err 5') === 2 && lastRunTicks(h).includes(2) ? h : null;
    }, 'the restarted container’s lines');
    for (const m of ['out 1', 'out 5', 'err 1', 'err 5', 'tick 1']) expect(count(after, m), m).toBe(2);
    // An exit the agent did not cause is in the log.
    expect(after.some((l) => l.isSystem && l.message.startsWith("Service exited 'main'"))).toBe(true);
  }, 90_000);

  it('an agent restart resumes where the last one stopped: no line twice', async () => {
    const old = agents.pop()!;
    await old.stop();
    const stoppedAt = Date.now();
    // Ticks written while no agent runs are shipped by the next one (the cursor), not lost.
    await new Promise((r) => setTimeout(r, 2_500));
    // The same device (registered config: uuid, key, device id) and the same cursor file.
    await runAgent(old.config());
    // The new agent ships ticks written after its start; nothing from before comes back.
    const h = await eventually(async () => {
      const lines = await history(config.uuid);
      return count(lines, 'Agent starting') === 2 && lines.some((l) => l.message.startsWith('tick ') && l.timestamp > stoppedAt + 1_000) ? lines : null;
    }, 'ticks from the new agent');
    for (const m of ['out 1', 'out 5', 'err 1', 'err 5', 'tick 1']) expect(count(h, m), m).toBe(2);
    const ticks = h.filter((l) => l.message.startsWith('tick ')).map((l) => `${l.message}@${l.timestamp}`);
    expect(new Set(ticks).size).toBe(ticks.length);
    // The restarted container's ticks (after its second "out 5") are 1..n without a gap.
    const numbers = lastRunTicks(h);
    const max = Math.max(...numbers);
    expect(max).toBeGreaterThan(3);
    expect([...new Set(numbers)].sort((a, b) => a - b)).toEqual(Array.from({ length: max }, (_, i) => i + 1));
  }, 90_000);
});

describe('flotilla-agent simulate sends device logs', () => {
  it('a simulated device’s service and system lines reach logs.history', async () => {
    sim = await startSimulation({
      api: t.url,
      provisioningKey: provKey,
      count: 1,
      fleetId: fleet,
      deviceType: 'raspberrypi3',
      pollIntervalMs: 1_000,
      downloadMs: [200, 300],
      applyMs: [100, 200],
      link: false,
      logRate: 600,
      logs: { flushMs: 50 },
      log: () => {},
    });
    const uuid = sim.devices[0]!.uuid;
    const lines = await eventually(async () => {
      const h = await history(uuid);
      return h.filter((l) => !l.isSystem).length >= 5 && h.some((l) => l.isSystem && l.message.startsWith("Started service 'main ")) ? h : null;
    }, 'the simulated device’s lines');
    expect(lines.some((l) => l.isSystem && l.message.startsWith('Downloading image '))).toBe(true);
    const service = lines.filter((l) => !l.isSystem);
    expect(service.every((l) => l.serviceId === release.serviceIds.main && l.message.length > 0)).toBe(true);
    const device = await row<{ id: number }>(t.db, 'SELECT id FROM device WHERE uuid = $1', [uuid]);
    expect(device).toBeDefined();
  }, 90_000);
});
