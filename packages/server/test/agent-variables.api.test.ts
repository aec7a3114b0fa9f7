import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { effectiveValues, type EffectiveVariable } from '@flotilla/model';
import { CONTAINER_LABELS, normalizeConfig, startAgent, type ConfigHookDocument, type RunningAgent } from '@flotilla/agent';
import { sdkClient, signUp, type SignedUpUser } from './harness.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { createFleet, hex, requester, row } from './support/fleet-helpers.js';
import { startRegistryServer, type RegistryServer } from './support/registry.js';
import { testEngine } from './support/test-engine.js';
import { AgentEvents } from './support/agent-events.js';
import { apiWriter, waitFor as eventually } from './support/wait-for.js';

// Issue 16 item 3: `flotilla-agent run --engine podman` applies what the variables pages set.
// Variables are written through the published balena-sdk; the containers are read back
// through the engine API (dockerode). The agent passes each service the environment the
// server merged (composition < fleet < fleet service < device < device service), recreates
// only the services whose environment changed, gives the configuration it does not apply
// itself to its config hook (a real executable here), and reboots for a will_reboot
// variable only once the update lock is free or overridden — through a recorder: a test
// never reboots the machine.

const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `agent-vars-${hex(4)}`;
const labels = { [TEST_LABEL]: testId };
const ENGINE_ENV = new Set(['PATH', 'HOSTNAME', 'TERM', 'container', 'HOME']);
const SLEEP = 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done';

const composition = {
  version: '2.1',
  services: {
    main: { command: ['/bin/busybox', 'sh', '-c', SLEEP], environment: { GREETING: 'from-compose', FROM_COMPOSE: 'yes' }, labels },
    worker: { command: ['/bin/busybox', 'sh', '-c', SLEEP], environment: { GREETING: 'from-compose' }, labels },
  },
};

let t: RegistryServer;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let fleet: number;
let dir: string;
let agent: RunningAgent;
let uuid: string;
let lock: string;
let hookLog: string;
const events = new AgentEvents(60_000);
const reboots: string[] = [];
/** The agent's own log, shown when a test fails. */
const agentLog: string[] = [];

const api = apiWriter(() => req, () => owner.token);

async function deploy(tag: string): Promise<number> {
  const release = (await api<{ id: number }>('POST', '/v7/release', { belongs_to__application: fleet, commit: hex(), status: 'running', source: 'cloud', composition })).id;
  for (const name of Object.keys(composition.services)) {
    const service = (await api<{ id: number }>('POST', '/v7/service', { application: fleet, service_name: name })).id;
    const image = await api<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
    const digestFile = join(dir, `digest-${hex(4)}`);
    await podman(engine, ['push', '-q', '--creds', `${owner.username}:${owner.token}`, '--digestfile', digestFile, tag, `${image.is_stored_at__image_location}:latest`]);
    await api('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release });
    await api('PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: readFileSync(digestFile, 'utf8').trim() });
  }
  await api('PATCH', `/v7/release(${release})`, { status: 'success' });
  return release;
}

/** The device's containers by service, with their environment as the engine has it. */
async function containers(): Promise<Record<string, { id: string; startedAt: string; env: Record<string, string> }>> {
  const out: Record<string, { id: string; startedAt: string; env: Record<string, string> }> = {};
  for (const c of await docker.listContainers({ all: true, filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } })) {
    // A container the agent is replacing may be gone between the list and the inspect.
    const info = await docker.getContainer(c.Id).inspect().catch(() => null);
    if (info === null) continue;
    const env: Record<string, string> = {};
    for (const kv of info.Config.Env ?? []) env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
    out[c.Labels[CONTAINER_LABELS.serviceName]!] = { id: c.Id, startedAt: info.State.StartedAt, env };
  }
  return out;
}

const until = (what: string, ok: (c: Awaited<ReturnType<typeof containers>>) => boolean) =>
  eventually(async () => {
    const c = await containers();
    return c.main && c.worker && ok(c) ? c : undefined;
  }, what);

/** The documents the hook received, in order. */
const hookDocs = (): ConfigHookDocument[] =>
  existsSync(hookLog)
    ? readFileSync(hookLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ConfigHookDocument)
    : [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-agent-vars-'));
  t = await startRegistryServer({ dir: join(dir, 'registry') });
  req = requester(t.app);
  owner = await signUp(t.app);
  sdk = sdkClient(t.url);
  await sdk.auth.loginWithToken(owner.token);
  fleet = await createFleet(t.app, t.db, owner, 'VarsFleet', 'raspberrypi3');
  const ctx = join(dir, 'ctx');
  mkdirSync(ctx);
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\n`);
  const tag = `localhost/flotilla-agent-test/${testId}:1`;
  await podman(engine, ['build', '-q', '-t', tag, ctx]);
  await deploy(tag);
  await podman(engine, ['rmi', tag]);

  // Fleet-wide variables before the device exists: a fleet variable and a fleet-service one (worker).
  await sdk.models.application.envVar.set(fleet, 'GREETING', 'from-fleet');
  await sdk.models.application.envVar.set(fleet, 'LEVEL', 'fleet');
  const worker = (await row<{ id: number }>(t.db, `SELECT id FROM service WHERE application = $1 AND service_name = 'worker'`, [fleet]))!.id;
  await sdk.models.service.var.set(worker, 'LEVEL', 'fleet-service');

  // The hook appends each document it gets to a file; it fails (exit 3) while BALENA_TEST_HOOK_FAIL is set.
  hookLog = join(dir, 'hook.ndjson');
  const hook = join(dir, 'config-hook.sh');
  writeFileSync(hook, `#!/bin/sh\ndoc=$(cat)\necho "$doc" >> ${hookLog}\ncase "$doc" in *'"BALENA_TEST_HOOK_FAIL"'*) echo "cannot map BALENA_TEST_HOOK_FAIL" >&2; exit 3;; esac\nexit 0\n`);
  chmodSync(hook, 0o755);

  lock = join(dir, 'updates.lock');
  const provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  const { config } = normalizeConfig({ apiEndpoint: t.url, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000, updateLockPath: lock, osVariant: 'dev' });
  uuid = config.uuid;
  agent = await startAgent({
    config,
    engine: 'podman',
    engineEnv: { DOCKER_HOST: engine.dockerHost },
    log: (m) => agentLog.push(m),
    onEvent: events.push,
    reportDebounceMs: 50,
    stopTimeoutS: 2,
    statusIntervalMs: 500,
    lockRetryMs: 300,
    configHook: hook,
    configHookTimeoutMs: 10_000,
    hostConfigFile: join(dir, 'host-config.json'),
    allowPower: true,
    hostPower: (kind) => void reboots.push(kind),
    logs: { flushMs: 100 },
  });
}, 180_000);

afterAll(async () => {
  await agent?.stop();
  await removeLabelled(engine, testId);
  for (const n of await docker.listNetworks({ filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } }).catch(() => [])) await docker.getNetwork(n.Id).remove().catch(() => undefined);
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') console.error(`agent log:\n${agentLog.slice(-40).join('\n')}`);
});

describe('flotilla-agent run applies variables and configuration', () => {
  it("gives each container the environment with the dialect's precedence (fleet over composition, fleet service over fleet, device over both)", async () => {
    const first = await until('both services running with the fleet variables', (c) => c.main!.env.GREETING === 'from-fleet' && c.worker!.env.LEVEL === 'fleet-service');
    expect(first.main!.env).toMatchObject({ GREETING: 'from-fleet', LEVEL: 'fleet', FROM_COMPOSE: 'yes', BALENA_SERVICE_NAME: 'main', BALENA_DEVICE_UUID: uuid });
    expect(first.worker!.env).toMatchObject({ GREETING: 'from-fleet', LEVEL: 'fleet-service', BALENA_SERVICE_NAME: 'worker' });
    expect(first.worker!.env.FROM_COMPOSE).toBeUndefined();

    // A device variable: both services get it, over the fleet and the fleet-service values.
    await sdk.models.device.envVar.set(uuid, 'LEVEL', 'device');
    const second = await until('the device variable in both containers', (c) => c.main!.env.LEVEL === 'device' && c.worker!.env.LEVEL === 'device');
    expect(second.main!.env).toMatchObject({ GREETING: 'from-fleet', FROM_COMPOSE: 'yes' });
  }, 120_000);

  it("a device-service override recreates only that service's container; the other keeps its container id", async () => {
    const before = await containers();
    await sdk.models.device.serviceVar.set(uuid, 'main', 'GREETING', 'from-device-service');
    const after = await until('main recreated with the override', (c) => c.main!.env.GREETING === 'from-device-service');
    expect(after.main!.id).not.toBe(before.main!.id);
    expect(after.worker!.id).toBe(before.worker!.id);
    expect(after.worker!.startedAt).toBe(before.worker!.startedAt);
    expect(after.worker!.env.GREETING).toBe('from-fleet');
    expect(after.main!.env).toMatchObject({ LEVEL: 'device', FROM_COMPOSE: 'yes' });
    expect(events.all).toContainEqual({ type: 'environment', changed: { main: ['GREETING'] } });

    // What the containers run is what the device's effective-variables view says (one function for both).
    const res = await fetch(`${t.url}/device/${uuid}/effective-variables`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    const effective = (await res.json()) as { services: { service_name: string; environment: EffectiveVariable[] }[] };
    for (const s of effective.services) {
      // Less the balena defaults and what the engine adds on its own (the image's PATH, HOSTNAME, TERM, container).
      const own = Object.fromEntries(Object.entries(after[s.service_name]!.env).filter(([k]) => !k.startsWith('BALENA') && !ENGINE_ENV.has(k)));
      expect(own).toEqual(effectiveValues(s.environment, { sentOnly: true }));
    }
    expect(effective.services.find((s) => s.service_name === 'main')!.environment.find((v) => v.name === 'GREETING')).toMatchObject({
      value: 'from-device-service',
      level: 'device-service',
    });

    // Removing the override brings the fleet value back, again in main only.
    await sdk.models.device.serviceVar.remove(uuid, 'main', 'GREETING');
    const back = await until('main back on the fleet value', (c) => c.main!.env.GREETING === 'from-fleet');
    expect(back.worker!.id).toBe(before.worker!.id);
  }, 120_000);

  it('gives the configuration variables it does not apply itself to the config hook as JSON; a failure is a system log line', async () => {
    const appliedDelta = events.next('host-config', (e) => e.changed.includes('BALENA_SUPERVISOR_DELTA'));
    await sdk.models.device.configVar.set(uuid, 'BALENA_SUPERVISOR_DELTA', 'true');
    await appliedDelta;
    const doc = hookDocs().find((d) => d.config.BALENA_SUPERVISOR_DELTA === 'true');
    expect(doc).toEqual({ version: 1, uuid, deviceType: 'raspberrypi3', config: { BALENA_SUPERVISOR_DELTA: 'true' }, changed: ['BALENA_SUPERVISOR_DELTA'], reboot: [] });
    expect(reboots).toEqual([]);

    const failedEvent = events.next('host-config-failed');
    await sdk.models.device.configVar.set(uuid, 'BALENA_TEST_HOOK_FAIL', '1');
    expect((await failedEvent).error).toMatch(/exited with code 3: cannot map BALENA_TEST_HOOK_FAIL/);
    // Shipped to the device's log as a system line (balena-sdk logs.history reads it).
    let seen: string[] = [];
    const line = await eventually(async () => {
      const history = (await sdk.logs.history(uuid, { count: 'all' })) as unknown as { message: string; isSystem: boolean; isStdErr: boolean }[];
      seen = history.map((l) => l.message);
      return history.find((l) => l.isSystem && l.message.startsWith('Failed to apply the host configuration'));
    }, 'the failure as a system log line', 20_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; the log has ${JSON.stringify(seen.slice(-10))}`);
    });
    expect(line).toMatchObject({ isStdErr: true });
    expect(line.message).toMatch(/cannot map BALENA_TEST_HOOK_FAIL/);
    // Not retried until the configuration changes again: then the hook runs with the new set.
    const runs = hookDocs().length;
    const applied = events.next('host-config', (e) => e.changed.includes('BALENA_SUPERVISOR_DELTA'));
    await sdk.models.device.configVar.remove(uuid, 'BALENA_TEST_HOOK_FAIL');
    await sdk.models.device.configVar.set(uuid, 'BALENA_SUPERVISOR_DELTA', 'false');
    await applied;
    expect(hookDocs().length).toBe(runs + 1);
    expect(hookDocs().at(-1)).toMatchObject({ config: { BALENA_SUPERVISOR_DELTA: 'false' }, changed: ['BALENA_SUPERVISOR_DELTA'] });
    expect(reboots).toEqual([]);
  }, 60_000);

  it('a will_reboot variable reboots only once the update lock is released, or at once when the lock is overridden', async () => {
    writeFileSync(lock, '');
    const waiting = events.next('config-reboot', (e) => e.state === 'waiting');
    await sdk.models.device.configVar.set(uuid, 'BALENA_HOST_CONFIG_gpu_mem', '128');
    expect((await waiting).names).toEqual(['BALENA_HOST_CONFIG_gpu_mem']);
    const doc = hookDocs().at(-1)!;
    // The hook got the whole set and what needs a reboot.
    expect(doc).toMatchObject({ config: { BALENA_SUPERVISOR_DELTA: 'false', BALENA_HOST_CONFIG_gpu_mem: '128' }, changed: ['BALENA_HOST_CONFIG_gpu_mem'], reboot: ['BALENA_HOST_CONFIG_gpu_mem'] });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(reboots).toEqual([]);
    unlinkSync(lock);
    await eventually(async () => reboots.length === 1, 'the reboot once the lock is released');
    expect(reboots).toEqual(['reboot']);

    writeFileSync(lock, '');
    const waitingAgain = events.next('config-reboot', (e) => e.state === 'waiting');
    await sdk.models.device.configVar.set(uuid, 'BALENA_HOST_CONFIG_gpu_mem', '256');
    await waitingAgain;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(reboots).toHaveLength(1);
    await sdk.models.device.configVar.set(uuid, 'RESIN_SUPERVISOR_OVERRIDE_LOCK', '1');
    await eventually(async () => reboots.length === 2, 'the reboot through the overridden lock');
    expect(existsSync(lock)).toBe(true);
    // The agent's own variable never reaches the hook.
    expect(hookDocs().some((d) => 'RESIN_SUPERVISOR_OVERRIDE_LOCK' in d.config)).toBe(false);
    unlinkSync(lock);
  }, 90_000);

  it("local mode: the cloud's changes are not applied while it is on (the containers stay), and are once it is off", async () => {
    const on = events.next('local-mode', (e) => e.on);
    await sdk.models.device.configVar.set(uuid, 'RESIN_SUPERVISOR_LOCAL_MODE', '1');
    await on;
    const before = await containers();
    const seen = events.next('target');
    await sdk.models.device.envVar.set(uuid, 'IN_LOCAL_MODE', 'yes');
    await seen;
    await new Promise((r) => setTimeout(r, 2_000));
    const during = await containers();
    expect(during.main!.id).toBe(before.main!.id);
    expect(during.worker!.id).toBe(before.worker!.id);
    expect(during.main!.env.IN_LOCAL_MODE).toBeUndefined();
    await sdk.models.device.configVar.set(uuid, 'RESIN_SUPERVISOR_LOCAL_MODE', '0');
    await until('the change applied after local mode', (c) => c.main!.env.IN_LOCAL_MODE === 'yes' && c.worker!.env.IN_LOCAL_MODE === 'yes');
    expect(events.all).toContainEqual({ type: 'local-mode', on: false });
  }, 90_000);
});
