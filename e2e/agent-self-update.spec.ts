import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import Docker from 'dockerode';
import { removeByLabel, removeLabelled, TEST_BASE_IMAGE, TEST_LABEL } from '@flotilla/server/test-engine';
import { AGENT_VERSION } from '@flotilla/model';
import { apiAs, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { platformAdminToken } from './support/outbox';
import { reloadUntil } from './support/settle';
import { createProvisioningKey } from './support/simulator';
import { newEmail, signIn } from './support/users';

/*
 * Issue 17 item 4: a real `flotilla-agent run` (the single-file agent GET /download/agent
 * serves, started by its launcher on the run's Podman engine) runs a release deployed with
 * `flotilla deploy`. A platform administrator publishes a newer agent build (the served bundle
 * with its version raised) for the device's architecture; the fleet owner updates the device
 * from the device settings' supervisor dialog. The agent restarts into the new build: the device
 * page shows the new supervisor version, and the engine's container keeps its id.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(repoRoot, 'packages/cli/bin/flotilla.mjs');
const DEVICE_UUID_LABEL = 'io.flotilla.device-uuid';
const DEVICE_TYPE = 'intel-nuc';
const testId = `e2e-self-update-${randomBytes(4).toString('hex')}`;
const engineEnv = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'DOCKER_HOST' || k.startsWith('CONTAINERS_')) as [string, string][]);

let agent: ChildProcess | undefined;
let work: string | undefined;
let deviceUuid: string | undefined;
let agentOutput = '';

test.afterEach(async () => {
  const info = test.info();
  if (info.status !== info.expectedStatus) await info.attach('agent output', { body: agentOutput, contentType: 'text/plain' });
});

test.afterAll(async () => {
  if (agent?.pid !== undefined && agent.exitCode === null) {
    const exited = new Promise((done) => agent!.once('exit', done));
    process.kill(-agent.pid, 'SIGTERM');
    await exited;
  }
  const engine = { env: engineEnv() };
  if (deviceUuid) await removeByLabel(engine, DEVICE_UUID_LABEL, deviceUuid);
  await removeLabelled(engine, testId);
  if (work) await rm(work, { recursive: true, force: true });
});

function flotilla(cwd: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 150_000, env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      done({ code, output: `${String(stdout)}\n${String(stderr)}` });
    });
  });
}

test('a real agent updated from the supervisor dialog restarts into the new build: the page shows its version, the container keeps its id', async ({ page, request, baseURL }) => {
  test.setTimeout(300_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const user: ApiUser = await registerApiUser(request, newEmail('selfupdate'));
  const org = await apiAs<{ id: number; handle: string }>(request, user, 'POST', '/v7/organization', { name: `Self update E2E ${stamp}` });
  const types = await apiAs<V7<'device_type', 'id'>>(request, user, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent(`slug eq '${DEVICE_TYPE}'`)}`);
  const fleetName = `selfupdate_${stamp}`;
  const fleet = await apiAs<{ id: number }>(request, user, 'POST', '/v7/application', { app_name: fleetName, organization: org.id, is_for__device_type: types.d[0]!.id, is_of__class: 'fleet' });
  const provisioningKey = await createProvisioningKey(request, user, fleet.id);
  work = await mkdtemp(join(tmpdir(), 'flotilla-e2e-self-update-'));

  // The device: the served single-file agent, a balenaOS version (supervisor updates need one).
  const bundle = await (await request.get('/download/agent')).text();
  const agentFile = join(work, 'flotilla-agent.mjs');
  await writeFile(agentFile, bundle);
  // The registry host the server's image locations name, as the installer gives it to the agent.
  const registryHost = /^REGISTRY='([^']+)'$/m.exec(await (await request.get('/download/agent/install.sh')).text())?.[1];
  expect(registryHost).toBeTruthy();
  deviceUuid = randomBytes(16).toString('hex');
  const configPath = join(work, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({ apiEndpoint: baseURL, applicationId: fleet.id, deviceType: DEVICE_TYPE, apiKey: provisioningKey, uuid: deviceUuid, appUpdatePollInterval: 10_000, osVersion: 'balenaOS 6.0.10', osVariant: 'prod', registryEndpoint: registryHost }),
  );
  agent = spawn(process.execPath, [agentFile, 'run', '--config', configPath], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FLOTILLA_AGENT_ENGINE: 'podman', ...engineEnv() },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  agent.stdout!.on('data', (d: Buffer) => (agentOutput += d.toString()));
  agent.stderr!.on('data', (d: Buffer) => (agentOutput += d.toString()));

  // A one-service release with `flotilla deploy`.
  const source = join(work, 'project');
  await mkdir(source);
  await writeFile(join(source, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\nCMD ["/bin/busybox", "sleep", "3600"]\n`);
  const deploy = await flotilla(work, ['deploy', `${org.handle}/${fleetName}`, '--source', source], {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    FLOTILLA_CONFIG_DIR: join(work, 'cli-config'),
    FLOTILLA_API_URL: baseURL!,
    FLOTILLA_TOKEN: user.token,
    ...engineEnv(),
  });
  expect(deploy.code, deploy.output).toBe(0);
  const docker = new Docker({ socketPath: new URL(process.env.DOCKER_HOST!).pathname });
  const container = async () => (await docker.listContainers({ filters: { label: [`${DEVICE_UUID_LABEL}=${deviceUuid}`] } }))[0]?.Id;
  await expect.poll(container, { timeout: 120_000, message: 'the agent did not run the release (its output is attached)' }).toMatch(/^[0-9a-f]{64}$/);
  const containerId = await container();

  // A newer agent build, published by the platform administrator for the device's architecture.
  const version = `14.0.${1 + (parseInt(randomBytes(2).toString('hex'), 16) % 900)}`;
  const build = bundle.replace(`// flotilla-agent ${AGENT_VERSION}:`, `// flotilla-agent ${version}:`).replace(`AGENT_VERSION="${AGENT_VERSION}"`, `AGENT_VERSION="${version}"`);
  expect(build).toContain(`AGENT_VERSION="${version}"`);
  const published = await request.post(`/admin/v1/supervisor-releases?version=${version}&arch=amd64`, {
    headers: { Authorization: `Bearer ${await platformAdminToken(request)}`, 'Content-Type': 'application/octet-stream' },
    data: Buffer.from(build),
  });
  expect(published.status(), await published.text()).toBe(201);

  // The owner updates the supervisor from the device settings.
  await signIn(page, user.email);
  await page.goto(`/devices/${deviceUuid}/settings`);
  const supervisorRow = page.getByRole('region', { name: 'Supervisor update' });
  await expect(supervisorRow).toContainText(version, { timeout: 30_000 });
  await supervisorRow.getByRole('button', { name: 'Update supervisor' }).click();
  const dialog = page.getByRole('dialog', { name: /^Update the supervisor of / });
  await expect(dialog).toContainText(`Running supervisor ${AGENT_VERSION}.`);
  await dialog.getByRole('radio', { name: version, exact: true }).check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: 'Confirm update' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `Supervisor update to ${version} requested` })).toBeVisible();

  // The agent restarts into the new build and reports its version (through the API first, so a failure shows the agent's output).
  await expect
    .poll(
      async () => (await apiAs<V7<'device', 'supervisor_version'>>(request, user, 'GET', `/v7/device?$select=supervisor_version&$filter=${encodeURIComponent(`uuid eq '${deviceUuid}'`)}`)).d[0]?.supervisor_version,
      { timeout: 120_000, message: 'the agent did not report the new version (its output is attached)' },
    )
    .toBe(version);
  await page.goto(`/devices/${deviceUuid}`);
  const details = page.getByRole('region', { name: 'Device details' });
  await reloadUntil(page, details, async (d) => expect(d).toContainText(new RegExp(`Supervisor version\\s*${version.replace(/\./g, '\\.')}`)), 90_000);
  expect(agentOutput).toContain(`launcher: starting ${join(work, `flotilla-agent-${version}.mjs`)} on probation`);
  expect(await container()).toBe(containerId);
  expect(problems.errors).toEqual([]);
});
