import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from '@flotilla/model';
import { CONTAINER_LABELS } from '@flotilla/agent';
import { sdkClient, signInStaff, signUp, type SignedUpUser } from './harness.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { createFleet, hex, requester, row } from './support/fleet-helpers.js';
import { startRegistryServer, type RegistryServer } from './support/registry.js';
import { testEngine } from './support/test-engine.js';
import { apiWriter, waitFor } from './support/wait-for.js';

/*
 * Issue 17 item 4: a real `flotilla-agent run` (the single-file bundle the server serves, run
 * by its launcher) with a running release on the run's Podman engine updates itself to newer
 * agent builds published as supervisor releases and pinned with balena-sdk's
 * `device.pinToSupervisorRelease`: a build whose download does not match its checksum is
 * refused, a build that crashes at start is rolled back (the previous build reports the
 * failure), a good build restarts the agent into it and it reports its version; the
 * containers keep their ids throughout and when the agent stops.
 */
const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `self-update-${hex(4)}`;
const labels = { [TEST_LABEL]: testId };

let t: RegistryServer;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let adminToken: string;
let fleet: number;
let dir: string;
let bundle: string;
let uuid: string;
let child: ChildProcess;
let output = '';
let exited: Promise<number | null>;
let sdk: ReturnType<typeof sdkClient>;

const api = apiWriter(() => req, () => owner.token);

/** The served bundle as agent `version` (its version constant and banner replaced), optionally crashing at start. */
function buildOf(version: string, crash = false): Buffer {
  const text = bundle.replace(`// flotilla-agent ${AGENT_VERSION}:`, `// flotilla-agent ${version}:`).replace(`AGENT_VERSION="${AGENT_VERSION}"`, `AGENT_VERSION="${version}"`);
  expect(text).toContain(`AGENT_VERSION="${version}"`);
  if (!crash) return Buffer.from(text);
  const lines = text.split('\n');
  lines.splice(2, 0, 'console.error("this build crashes at start"); process.exit(3);');
  return Buffer.from(lines.join('\n'));
}

async function publish(version: string, body: Buffer): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/admin/v1/supervisor-releases?version=${version}&arch=armv7hf`,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { releases: { id: number }[] }).releases[0]!.id;
}

const device = () =>
  row<{ supervisor_version: string | null; provisioning_state: string | null; is_running__release: number | null }>(
    t.db,
    'SELECT supervisor_version, provisioning_state, is_running__release FROM device WHERE uuid = $1',
    [uuid],
  );
const containerIds = async () =>
  Object.fromEntries(
    (await docker.listContainers({ all: true, filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } })).map((c) => [c.Labels[CONTAINER_LABELS.serviceName]!, `${c.Id} ${c.State}`]),
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-self-update-'));
  t = await startRegistryServer({ dir: join(dir, 'registry') });
  apiUrl = t.url;
  req = requester(t.app);
  owner = await signUp(t.app);
  adminToken = (await signInStaff(t.app, t.db)).token;
  fleet = await createFleet(t.app, t.db, owner, 'SelfUpdateFleet');
  const provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json<string>();
  // One release with one long-running service, pushed to the embedded registry.
  const ctx = join(dir, 'ctx');
  mkdirSync(ctx);
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\n`);
  const tag = `localhost/flotilla-agent-test/${testId}-main:1`;
  await podman(engine, ['build', '-q', '-t', tag, ctx]);
  const release = (await api<{ id: number }>('POST', '/v7/release', {
    belongs_to__application: fleet,
    commit: hex(),
    status: 'running',
    source: 'cloud',
    composition: { version: '2.1', services: { main: { command: ['/bin/busybox', 'sh', '-c', 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done'], labels } } },
  })).id;
  const service = (await api<{ id: number }>('POST', '/v7/service', { application: fleet, service_name: 'main' })).id;
  const image = await api<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
  const digestFile = join(dir, 'digest');
  await podman(engine, ['push', '-q', '--creds', `${owner.username}:${owner.token}`, '--digestfile', digestFile, tag, `${image.is_stored_at__image_location}:latest`]);
  await api('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release });
  await api('PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: readFileSync(digestFile, 'utf8').trim() });
  await api('PATCH', `/v7/release(${release})`, { status: 'success' });
  await podman(engine, ['rmi', tag]);

  bundle = await (await fetch(`${apiUrl}/download/agent`)).text();
  const agentFile = join(dir, 'flotilla-agent.mjs');
  writeFileSync(agentFile, bundle);
  uuid = hex();
  const configPath = join(dir, 'config.json');
  // A balenaOS version: the supervisor rules allow supervisor updates on balenaOS only.
  writeFileSync(configPath, JSON.stringify({ apiEndpoint: apiUrl, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, uuid, appUpdatePollInterval: 1_000, osVersion: 'balenaOS 6.0.10', osVariant: 'prod' }));
  child = spawn(process.execPath, [agentFile, 'run', '--config', configPath], {
    env: { ...process.env, FLOTILLA_AGENT_ENGINE: 'podman', DOCKER_HOST: engine.dockerHost, FLOTILLA_AGENT_PROBATION_S: '60' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  exited = new Promise((resolve) => child.on('exit', resolve));
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
}, 240_000);

afterAll(async () => {
  if (process.env.FLOTILLA_SELF_UPDATE_LOG) writeFileSync(process.env.FLOTILLA_SELF_UPDATE_LOG, output);
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await exited;
  }
  await removeLabelled(engine, testId);
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('flotilla-agent self-update', () => {
  let ids: Record<string, string>;

  it('runs the release under its launcher and reports its own version', async () => {
    await waitFor(async () => (await containerIds()).main?.endsWith(' running') && (await device())?.supervisor_version === AGENT_VERSION, 'the agent running its release', 180_000);
    ids = await containerIds();
    expect(output).toContain('launcher: starting');
  }, 200_000);

  it('refuses a build whose download does not match its checksum, reports it and keeps running', async () => {
    const release = await publish('14.7.0', buildOf('14.7.0'));
    await t.db.query(`UPDATE supervisor_build SET content = content || '\n// tampered'::bytea WHERE release = $1`, [release]);
    await sdk.models.device.pinToSupervisorRelease(uuid, release);
    const d = await waitFor(async () => {
      const r = await device();
      return r?.provisioning_state?.startsWith('Agent update to 14.7.0 failed') ? r : undefined;
    }, 'the checksum failure reported', 90_000);
    expect(d.provisioning_state).toContain('checksum mismatch');
    expect(d.supervisor_version).toBe(AGENT_VERSION);
    expect(child.exitCode).toBeNull();
    expect(await containerIds()).toEqual(ids);
  }, 120_000);

  it('rolls back a build that crashes at start: the previous build runs and reports the failure', async () => {
    const release = await publish('14.8.0', buildOf('14.8.0', true));
    await sdk.models.device.pinToSupervisorRelease(uuid, release);
    const d = await waitFor(async () => {
      const r = await device();
      return r?.provisioning_state?.startsWith('Agent update to 14.8.0 failed') ? r : undefined;
    }, 'the failed start reported by the previous build', 150_000);
    expect(d.provisioning_state).toContain('it exited during its start (code 3)');
    expect(d.supervisor_version).toBe(AGENT_VERSION);
    expect(output).toContain('this build crashes at start');
    expect(output).toContain('launcher: build 14.8.0 failed');
    expect(await containerIds()).toEqual(ids);
  }, 180_000);

  it('restarts into a newer build, which reports its version; the containers keep their ids, also when it stops', async () => {
    const release = await publish('14.9.0', buildOf('14.9.0'));
    await sdk.models.device.pinToSupervisorRelease(uuid, release);
    await waitFor(async () => (await device())?.supervisor_version === '14.9.0', 'the new agent reporting 14.9.0', 150_000);
    await waitFor(async () => (await device())?.provisioning_state === null, 'the update notice cleared', 60_000);
    await waitFor(async () => output.includes('launcher: build 14.9.0 is healthy'), 'the launcher keeping 14.9.0', 60_000);
    expect((await sdk.models.device.get(uuid, { $select: 'supervisor_version' })).supervisor_version).toBe('14.9.0');
    expect(await containerIds()).toEqual(ids);
    const state = JSON.parse(readFileSync(join(dir, 'config.json.agent.json'), 'utf8')) as { current: { version: string } };
    expect(state.current.version).toBe('14.9.0');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await containerIds()).toEqual(ids);
  }, 200_000);
});
