import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_LABELS, normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { signUp, type SignedUpUser } from './harness.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { createFleet, hex, requester, row } from './support/fleet-helpers.js';
import { startRegistryServer, type RegistryServer } from './support/registry.js';
import { testEngine } from './support/test-engine.js';
import { apiWriter, waitFor as eventually } from './support/wait-for.js';

// flotilla-agent on a real engine (issue 14 round 2): a fleet's services share one bridge
// network per device, where each resolves the others by service name (balena's
// `<appId>_default`); when the device's target has no release any more (here: the device
// moved to a fleet without one) its services, their images and the network go, the
// volumes stay.

const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `agent-net-${hex(4)}`;
const labels = { [TEST_LABEL]: testId };

let t: RegistryServer;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let fleet: number;
let emptyFleet: number;
let dir: string;
let agent: RunningAgent;
let uuid: string;

const api = apiWriter(() => req, () => owner.token);

const composition = {
  version: '2.1',
  volumes: { www: {} },
  services: {
    // Serves /www/hello on port 8080 (the file is written at start into the named volume).
    web: { command: ['/bin/busybox', 'sh', '-c', 'echo hello-from-web > /www/hello; exec /bin/busybox httpd -f -p 8080 -h /www'], volumes: ['www:/www'], labels },
    client: { command: ['/bin/busybox', 'sh', '-c', 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done'], depends_on: ['web'], restart: 'on-failure:3', labels },
  },
};

/** One release of two services from one test image, pushed to the embedded registry and finalized as `balena deploy` does. */
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

const mine = () => docker.listContainers({ all: true, filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } });
const networks = () => docker.listNetworks({ filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } });
const volumes = async () => (await docker.listVolumes({ filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`] } })).Volumes ?? [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-agent-net-'));
  t = await startRegistryServer({ dir: join(dir, 'registry') });
  req = requester(t.app);
  owner = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, owner, 'NetFleet');
  emptyFleet = await createFleet(t.app, t.db, owner, 'EmptyFleet');
  const ctx = join(dir, 'ctx');
  mkdirSync(ctx);
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\nRUN ["/bin/busybox", "mkdir", "-p", "/www"]\n`);
  const tag = `localhost/flotilla-agent-test/${testId}:1`;
  await podman(engine, ['build', '-q', '-t', tag, ctx]);
  await deploy(tag);
  await podman(engine, ['rmi', tag]);
  const provKey = (await req(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  const { config } = normalizeConfig({ apiEndpoint: t.url, applicationId: fleet, deviceType: 'raspberrypi3', apiKey: provKey, appUpdatePollInterval: 1_000 });
  uuid = config.uuid;
  agent = await startAgent({ config, engine: 'podman', engineEnv: { DOCKER_HOST: engine.dockerHost }, log: () => {}, reportDebounceMs: 50, stopTimeoutS: 2, statusIntervalMs: 500 });
}, 180_000);

afterAll(async () => {
  await agent?.stop();
  await removeLabelled(engine, testId);
  for (const n of await docker.listNetworks({ filters: { label: [`${TEST_LABEL}=${testId}`] } }).catch(() => [])) await docker.getNetwork(n.Id).remove().catch(() => undefined);
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('flotilla-agent: the fleet network and a target without a release', () => {
  it("puts the fleet's services on one per-device network where each reaches the other by service name", async () => {
    const running = await eventually(async () => {
      const list = await mine();
      return list.length === 2 && list.every((c) => c.State === 'running') && list;
    }, 'both services running');
    const nets = await networks();
    expect(nets.map((n) => n.Name)).toEqual([`${fleet}_default_${uuid.slice(0, 12)}`]);
    for (const c of running) expect(Object.keys(c.NetworkSettings.Networks)).toEqual([nets[0]!.Name]);
    const client = running.find((c) => c.Labels[CONTAINER_LABELS.serviceName] === 'client')!;
    // httpd may take a moment after its container starts.
    const body = await eventually(async () => {
      const r = await podman(engine, ['exec', client.Id, '/bin/busybox', 'wget', '-q', '-O', '-', 'http://web:8080/hello']).catch(() => undefined);
      return r?.stdout;
    }, 'client fetching http://web:8080/hello');
    expect(body.trim()).toBe('hello-from-web');
    // restart: on-failure:N reaches the engine with its retry count.
    expect((await docker.getContainer(client.Id).inspect()).HostConfig.RestartPolicy).toMatchObject({ Name: 'on-failure', MaximumRetryCount: 3 });
  });

  it('removes the services and the network when the target has no release (the device moved to a fleet without one); the volume stays', async () => {
    const device = (await row<{ id: number }>(t.db, 'SELECT id FROM device WHERE uuid = $1', [uuid]))!;
    await api('PATCH', `/v7/device(${device.id})`, { belongs_to__application: emptyFleet });
    await eventually(async () => (await mine()).length === 0, 'containers removed');
    await eventually(async () => (await networks()).length === 0, 'network removed');
    expect((await volumes()).map((v) => v.Name)).toEqual([`${fleet}_www_${uuid.slice(0, 12)}`]);
  });
});
