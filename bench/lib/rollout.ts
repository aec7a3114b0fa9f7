import { DEFAULT_POLL_INTERVAL_MS } from '@flotilla/model';
// Rollout scenario of issue 14: (p) the time from `flotilla deploy` finishing to every device of
// a fleet running the new release with each of its services Running, for 20 real agents
// (`flotilla-agent run --engine podman`, the library form) on one Podman engine. Its baseline,
// measured in the same run on the same engine: the same 20 × 2 pulls (by digest, from a plain
// Distribution registry on loopback) and container starts made directly through the engine API,
// without Flotilla. Everything created carries `io.flotilla.test=<run id>` and is removed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled, startTestEngine, type TestEngine } from '@flotilla/server/test-engine';
import { Api, firstRow } from './api.js';
import { fmt, row, type Row } from './evaluate.js';
import type { Outcome } from './outcome.js';
import { progress } from './phases.js';
import { freePort } from './ports.js';
import type { SeededUser } from './seed.js';
import { REPO_ROOT } from './servers.js';
import { sleep } from './stats.js';

const CLI = join(REPO_ROOT, 'packages/cli/bin/flotilla.mjs');
const DISTRIBUTION = '/usr/bin/docker-registry';
export const SERVICES = ['main', 'worker'] as const;
/** Runs until stopped; exits at once on SIGTERM. */
const KEEP_RUNNING = 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done';

export interface RolloutConfig {
  devices: number;
  /**
   * The agents' target-state poll interval (`appUpdatePollInterval`): the default (10 min),
   * so the agents learn of the release from the cloud link's `target-changed` notice, not by
   * polling.
   */
  pollIntervalMs: number;
  timeoutMs: number;
}

export function loadRolloutConfig(quick: boolean): RolloutConfig {
  const devices = Number(process.env.BENCH_ROLLOUT_DEVICES ?? (quick ? 5 : 20));
  return { devices, pollIntervalMs: DEFAULT_POLL_INTERVAL_MS, timeoutMs: 10 * 60_000 };
}

export interface RolloutFigures {
  devices: number;
  services: number;
  pollIntervalMs: number;
  /** `flotilla deploy` from start to exit (build, push, release). */
  deploySeconds: number;
  /** From the CLI's exit to the server reporting every device running the release, each service Running. */
  rolloutSeconds: number;
  /** The same pulls and starts through the engine API, without Flotilla. */
  baselineSeconds: number;
}

const run = (file: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { maxBuffer: 16 * 1024 * 1024, ...opts }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });

/** The two-service project `flotilla deploy` builds: busybox images unique to this run. */
export async function writeProject(dir: string, runId: string): Promise<void> {
  const compose = ['version: "2.1"', 'services:'];
  for (const name of SERVICES) {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(join(dir, name, 'version'), `${runId} ${name}\n`);
    await writeFile(
      join(dir, name, 'Dockerfile'),
      `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${runId}\nCOPY version /version\nCMD ["/bin/busybox", "sh", "-c", ${JSON.stringify(KEEP_RUNNING)}]\n`,
    );
    compose.push(`  ${name}:`, `    build: ./${name}`, `    labels:`, `      ${TEST_LABEL}: ${runId}`);
  }
  await writeFile(join(dir, 'docker-compose.yml'), `${compose.join('\n')}\n`);
}

/** Debian's Distribution (`docker-registry`) on loopback, no auth: the baseline's registry. */
async function startDistribution(dir: string): Promise<{ host: string; stop(): void }> {
  const port = await freePort();
  const config = join(dir, 'distribution.yml');
  await writeFile(
    config,
    `version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: ${join(dir, 'distribution')}\nhttp:\n  addr: 127.0.0.1:${port}\n`,
  );
  const child: ChildProcess = spawn(DISTRIBUTION, ['serve', config], { stdio: 'ignore' });
  const host = `127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited with ${child.exitCode}`);
    const ok = await fetch(`http://${host}/v2/`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('docker-registry did not answer within 20 s');
    await sleep(100);
  }
  return { host, stop: () => child.kill('SIGTERM') };
}

/** One call to the engine's Docker-compatible API on its socket; resolves with the status and body. */
function engineCall(socketPath: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function engineOk(socketPath: string, method: string, path: string, body?: unknown): Promise<string> {
  const res = await engineCall(socketPath, method, path, body);
  if (res.status >= 300) throw new Error(`engine ${method} ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return res.body;
}

/** A pull through the engine API, as the agent makes it: the progress stream read to its end, errors in it fail. */
async function pull(socketPath: string, ref: string): Promise<void> {
  const out = await engineOk(socketPath, 'POST', `/images/create?fromImage=${encodeURIComponent(ref)}`);
  const failed = out.split('\n').find((line) => line.includes('"error"'));
  if (failed) throw new Error(`pull ${ref}: ${failed.slice(0, 300)}`);
}

/**
 * The baseline: each of `devices` "devices" pulls both images by digest and creates and starts
 * one container per service, all devices at once, straight through the engine API.
 */
async function measureBaseline(engine: TestEngine, dir: string, runId: string, devices: number): Promise<number> {
  const registry = await startDistribution(dir);
  try {
    const refs: string[] = [];
    for (const name of SERVICES) {
      const tag = `${registry.host}/bench-rollout/${runId}-${name}:1`;
      await podman(engine, ['build', '-q', '-t', tag, join(dir, 'project', name)]);
      const digestFile = join(dir, `digest-${name}`);
      await podman(engine, ['push', '-q', '--digestfile', digestFile, tag]);
      refs.push(`${registry.host}/bench-rollout/${runId}-${name}@${(await readFile(digestFile, 'utf8')).trim()}`);
    }
    const start = performance.now();
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: devices }, async (_, i) => {
        for (const [s, ref] of refs.entries()) {
          await pull(engine.socketPath, ref);
          const name = `${runId}-baseline-${i}-${SERVICES[s]}`;
          const { Id } = JSON.parse(await engineOk(engine.socketPath, 'POST', `/containers/create?name=${name}`, { Image: ref, Labels: { [TEST_LABEL]: runId } })) as { Id: string };
          await engineOk(engine.socketPath, 'POST', `/containers/${Id}/start`);
          ids.push(Id);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const states = await Promise.all(ids.map(async (id) => (JSON.parse(await engineOk(engine.socketPath, 'GET', `/containers/${id}/json`)) as { State: { Running: boolean } }).State.Running));
    const running = states.filter(Boolean).length;
    if (running !== devices * SERVICES.length) throw new Error(`baseline: ${running} of ${devices * SERVICES.length} containers running`);
    for (const id of ids) await engineOk(engine.socketPath, 'DELETE', `/containers/${id}?force=true`);
    return seconds;
  } finally {
    registry.stop();
  }
}

/** Counts through /v7 (what the server reports). */
export async function count(api: Api, resource: string, filter: string): Promise<number> {
  return (await api.json<{ d: number }>('GET', `/v7/${resource}/$count?$filter=${encodeURIComponent(filter)}`)).d;
}

export async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * `count` agents (`flotilla-agent run --engine podman`, the library form) registered in a fleet
 * with its provisioning key, all on one engine; their lock files under `dir`. Their log lines go
 * to `log` (tagged with the agent's index), by default nowhere.
 */
export async function startAgents(o: {
  baseUrl: string;
  fleetId: number;
  provisioningKey: string;
  count: number;
  dir: string;
  engine: TestEngine;
  pollIntervalMs: number;
  log?: (index: number, message: string) => void;
}): Promise<RunningAgent[]> {
  const agents: RunningAgent[] = [];
  try {
    for (let i = 0; i < o.count; i++) {
      const { config: agentConfig } = normalizeConfig({
        apiEndpoint: o.baseUrl,
        applicationId: o.fleetId,
        deviceType: 'raspberrypi4-64',
        apiKey: o.provisioningKey,
        appUpdatePollInterval: o.pollIntervalMs,
        updateLockPath: join(o.dir, `lock-${i}`),
      });
      const log = o.log;
      agents.push(await startAgent({ config: agentConfig, engine: 'podman', engineEnv: { DOCKER_HOST: o.engine.dockerHost }, log: log ? (m) => log(i, m) : () => {} }));
    }
    return agents;
  } catch (err) {
    await Promise.all(agents.map((a) => a.stop().catch(() => undefined)));
    throw err;
  }
}

/** The real CLI's `flotilla deploy <fleet> --source <dir>/project` on the engine; resolves with the release's commit. */
export async function flotillaDeploy(o: { baseUrl: string; token: string; fleetSlug: string; dir: string; engine: TestEngine; timeoutMs: number }): Promise<string> {
  const deployed = await run(process.execPath, [CLI, 'deploy', o.fleetSlug, '--source', join(o.dir, 'project')], {
    cwd: o.dir,
    timeout: o.timeoutMs,
    env: { PATH: process.env.PATH ?? '', HOME: o.dir, FLOTILLA_CONFIG_DIR: join(o.dir, 'config'), FLOTILLA_API_URL: o.baseUrl, FLOTILLA_TOKEN: o.token, DOCKER_HOST: o.engine.dockerHost },
  });
  if (deployed.code !== 0) throw new Error(`flotilla deploy exited with ${deployed.code}: ${(deployed.stderr || deployed.stdout).slice(-1000)}`);
  const commit = /\(commit ([0-9a-f]{32})\)/.exec(deployed.stdout)?.[1];
  if (!commit) throw new Error(`flotilla deploy printed no commit: ${deployed.stdout.slice(-500)}`);
  return commit;
}

export async function measureRollout(baseUrl: string, user: SeededUser, config: RolloutConfig): Promise<RolloutFigures> {
  const runId = `bench-rollout-${randomBytes(4).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-bench-rollout-'));
  progress('rollout (p): starting a Podman engine');
  const engine = await startTestEngine();
  const agents: RunningAgent[] = [];
  try {
    await writeProject(join(dir, 'project'), runId);
    progress(`rollout (p): baseline, ${config.devices} × ${SERVICES.length} pulls and starts through the engine API`);
    const baselineSeconds = await measureBaseline(engine, dir, runId, config.devices);

    const api = new Api(baseUrl, user.token);
    const deviceType = firstRow(await api.json<{ d?: { id: number }[] }>('GET', `/v7/device_type?$filter=${encodeURIComponent(`slug eq 'raspberrypi4-64'`)}&$select=id`), 'device type');
    const fleet = await api.json<{ id: number; slug?: string }>('POST', '/v7/application', { app_name: 'bench-rollout', organization: user.organizationId, is_for__device_type: deviceType.id });
    const provisioningKey = await api.json<string>('POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet.id, roles: ['provisioning-api-key'] });

    progress(`rollout (p): starting ${config.devices} agents (--engine podman)`);
    agents.push(...(await startAgents({ baseUrl, fleetId: fleet.id, provisioningKey, count: config.devices, dir, engine, pollIntervalMs: config.pollIntervalMs })));
    await until(`${config.devices} devices online`, 120_000, async () => (await count(api, 'device', `belongs_to__application eq ${fleet.id} and is_online eq true`)) === config.devices);

    progress('rollout (p): flotilla deploy');
    const deployStart = performance.now();
    const commit = await flotillaDeploy({ baseUrl, token: user.token, fleetSlug: fleet.slug ?? `${user.username}/bench-rollout`.toLowerCase(), dir, engine, timeoutMs: config.timeoutMs });
    const deployedAt = performance.now();
    const release = firstRow(
      await api.json<{ d?: { id: number }[] }>('GET', `/v7/release?$filter=${encodeURIComponent(`commit eq '${commit}' and belongs_to__application eq ${fleet.id}`)}&$select=id`),
      `release ${commit}`,
    );

    progress(`rollout (p): waiting for ${config.devices} devices to run release ${release.id}`);
    const expectedInstalls = config.devices * SERVICES.length;
    await until(`${config.devices} devices running release ${release.id}`, config.timeoutMs, async () => {
      const [devices, installs] = await Promise.all([
        count(api, 'device', `belongs_to__application eq ${fleet.id} and is_running__release eq ${release.id}`),
        count(api, 'image_install', `is_provided_by__release eq ${release.id} and status eq 'Running'`),
      ]);
      return devices === config.devices && installs === expectedInstalls;
    });
    const rolloutSeconds = (performance.now() - deployedAt) / 1000;
    return {
      devices: config.devices,
      services: SERVICES.length,
      pollIntervalMs: config.pollIntervalMs,
      deploySeconds: (deployedAt - deployStart) / 1000,
      rolloutSeconds,
      baselineSeconds,
    };
  } finally {
    await Promise.all(agents.map((a) => a.stop().catch(() => undefined)));
    await removeLabelled(engine, runId);
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function evaluateRollout(f: Outcome<RolloutFigures>): Row[] {
  return [
    row('p', 'rollout: `flotilla deploy` done → all devices Running', f, (r) => ({
      value: `${fmt(r.rolloutSeconds, 1)} s`,
      ratio: `${fmt((r.baselineSeconds / r.rolloutSeconds) * 100, 1)} % of engine-only`,
      target: 'report',
      pass: true,
      note:
        `${r.devices} agents (--engine podman, poll ${r.pollIntervalMs / 1000} s) × ${r.services} services on one Podman engine; ` +
        `the same pulls by digest and starts straight through the engine API: ${fmt(r.baselineSeconds, 1)} s; deploy itself (build, push, release) ${fmt(r.deploySeconds, 1)} s`,
    })),
  ];
}
