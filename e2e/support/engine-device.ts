import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { CONTAINER_LABELS, normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { podman, removeByLabel, removeLabelled, TEST_BASE_IMAGE, TEST_LABEL } from '@flotilla/server/test-engine';
import { apiAs, type ApiUser, type V7 } from './api';
import { createProvisioningKey, E2E_API } from './simulator';

/*
 * One real device for a spec: `flotilla-agent run` (in the test process, @flotilla/agent's
 * startAgent) on the run's Podman engine, running a release whose services are busybox
 * scripts. The image is built FROM the offline base, pushed to the e2e server's registry as
 * the fleet's owner and finalized with its digest as `balena deploy` does; the agent pulls it
 * with its device credentials. Everything is labelled with the spec's test id and removed by
 * `stop()`.
 */

const engine = { env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('CONTAINERS_')) as [string, string][]) };

export interface EngineDevice {
  uuid: string;
  agent: RunningAgent;
  /** The device's update lock: while this file exists, actions that stop services answer 423 unless forced. */
  lockPath: string;
  /** The agent's log lines so far (attach on failure). */
  output(): string;
  /** Started-at time of the device's container of `service` (the engine's view). */
  startedAt(service: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

const ids = async (args: string[]) => (await podman(engine, args).catch(() => ({ stdout: '' }))).stdout.split('\n').map((s) => s.trim()).filter(Boolean);

/** Starts a real agent in `fleetId` running one release with `services` (name → busybox shell script); resolves once it runs. */
export async function startEngineDevice(
  request: APIRequestContext,
  owner: ApiUser,
  fleetId: number,
  options: { deviceType: string; services: Record<string, string> },
): Promise<EngineDevice> {
  const testId = `e2e-engine-${randomBytes(4).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-e2e-engine-device-'));
  await writeFile(join(dir, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\n`);
  const tag = `localhost/flotilla-e2e/${testId}:1`;
  await podman(engine, ['build', '-q', '-t', tag, dir]);

  // The release as `balena deploy` makes it: release, one image per service pushed to its location, finalized.
  const composition = {
    version: '2.1',
    services: Object.fromEntries(
      Object.entries(options.services).map(([name, script]) => [name, { command: ['/bin/busybox', 'sh', '-c', script], labels: { [TEST_LABEL]: testId }, network_mode: 'none' }]),
    ),
  };
  const commit = randomBytes(16).toString('hex');
  let registryHost = '';
  const release = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/release', { belongs_to__application: fleetId, commit, status: 'running', source: 'cloud', composition });
  for (const name of Object.keys(options.services)) {
    const filter = encodeURIComponent(`application eq ${fleetId} and service_name eq '${name}'`);
    const existing = await apiAs<V7<'service', 'id'>>(request, owner, 'GET', `/v7/service?$select=id&$filter=${filter}`);
    const service = existing.d[0]?.id ?? (await apiAs<{ id: number }>(request, owner, 'POST', '/v7/service', { application: fleetId, service_name: name })).id;
    const image = await apiAs<{ id: number; is_stored_at__image_location: string }>(request, owner, 'POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
    registryHost = image.is_stored_at__image_location.split('/')[0]!;
    const digestFile = join(dir, `digest-${name}`);
    await podman(engine, ['push', '-q', '--tls-verify=false', '--creds', `${owner.username}:${owner.token}`, '--digestfile', digestFile, tag, `${image.is_stored_at__image_location}:latest`]);
    const digest = (await readFile(digestFile, 'utf8')).trim();
    await apiAs(request, owner, 'POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release.id });
    await apiAs(request, owner, 'PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: digest });
  }
  await apiAs(request, owner, 'PATCH', `/v7/release(${release.id})`, { status: 'success' });
  await apiAs(request, owner, 'PATCH', `/v7/application(${fleetId})`, { should_be_running__release: release.id, should_track_latest_release: false });

  const provisioningKey = await createProvisioningKey(request, owner, fleetId, `e2e engine device ${testId}`);
  const { config } = normalizeConfig({ apiEndpoint: E2E_API, applicationId: fleetId, deviceType: options.deviceType, apiKey: provisioningKey, appUpdatePollInterval: 2_000,
    // The registry host the server names in image locations (its credentials go only there).
    registryEndpoint: registryHost,
    updateLockPath: join(dir, 'update.lock'),
  });
  let output = '';
  const agent = await startAgent({
    config,
    engine: 'podman',
    engineEnv: { ...process.env, DOCKER_HOST: process.env.DOCKER_HOST },
    log: (m) => (output += `${m}\n`),
    stopTimeoutS: 2,
    statusIntervalMs: 1_000,
  });
  const uuid = agent.config().uuid;
  const label = `label=${CONTAINER_LABELS.deviceUuid}=${uuid}`;
  const device: EngineDevice = {
    uuid,
    agent,
    lockPath: join(dir, 'update.lock'),
    output: () => output,
    async startedAt(service) {
      for (const id of await ids(['ps', '-q', '--filter', label, '--filter', `label=${CONTAINER_LABELS.serviceName}=${service}`])) {
        const [at] = await ids(['inspect', '--format', '{{.State.StartedAt}}', id]);
        if (at) return at;
      }
      return undefined;
    },
    async stop() {
      await agent.stop().catch(() => undefined);
      await removeByLabel(engine, CONTAINER_LABELS.deviceUuid, uuid);
      await removeLabelled(engine, testId);
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await expect
      .poll(
        async () => {
          const rows = await apiAs<{ d: { is_online: boolean; is_running__release: { __id: number } | null }[] }>(
            request,
            owner,
            'GET',
            `/v7/device?$select=is_online,is_running__release&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`,
          );
          const row = rows.d[0];
          return row?.is_online === true && row.is_running__release?.__id === release.id;
        },
        { timeout: 90_000, message: `the agent did not come online running release ${release.id}` },
      )
      .toBe(true);
  } catch (err) {
    await device.stop();
    throw new Error(`${(err as Error).message}\n--- agent output ---\n${output}`);
  }
  return device;
}
