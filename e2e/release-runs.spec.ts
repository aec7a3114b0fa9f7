import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import Docker from 'dockerode';
import { removeByLabel, removeLabelled, TEST_BASE_IMAGE, TEST_LABEL } from '@flotilla/server/test-engine';
import { apiAs, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { createFleet } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * Issue 14's end-to-end flow: Add device → the copied command runs on "the device" (a child
 * process: the installer with FLOTILLA_PREFIX in a temporary directory, no systemd, the agent
 * on the run's Podman engine with FLOTILLA_AGENT_ENGINE=podman) → the device shows online →
 * `flotilla deploy` (the real CLI, a child process) builds and pushes a two-service release to
 * the server's embedded registry → the agent pulls and runs it → the device page shows the
 * release running and both services Running; the engine runs the two containers.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(repoRoot, 'packages/cli/bin/flotilla.mjs');
const DEVICE_UUID_LABEL = 'io.flotilla.device-uuid';
const SHOTS = '/work/notes/shots';

const testId = `e2e-release-runs-${randomBytes(4).toString('hex')}`;
const engineEnv = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'DOCKER_HOST' || k.startsWith('CONTAINERS_')) as [string, string][]);

// Every run's agent, work directory and device (`--repeat-each` runs the flow more than once
// in one worker before afterAll).
const agents: ChildProcess[] = [];
const workDirs: string[] = [];
const deviceUuids: string[] = [];
let agentOutput = '';

test.afterEach(async () => {
  // What the device said, for a failure's report (expect messages are built before the wait).
  const info = test.info();
  if (info.status !== info.expectedStatus) await info.attach('agent output', { body: agentOutput, contentType: 'text/plain' });
});

test.afterAll(async () => {
  // The installer ran in its own process group: the agent (exec'd in the foreground) goes with it.
  for (const agent of agents.splice(0)) {
    if (agent.pid === undefined || agent.exitCode !== null) continue;
    const exited = new Promise((done) => agent.once('exit', done));
    process.kill(-agent.pid, 'SIGTERM');
    await exited;
  }
  const engine = { env: engineEnv() };
  // What the agent made: containers, networks and volumes labelled with the device's uuid.
  for (const uuid of deviceUuids.splice(0)) await removeByLabel(engine, DEVICE_UUID_LABEL, uuid);
  // What the build made (and the agent pulled): images carrying the compose build label.
  await removeLabelled(engine, testId);
  for (const dir of workDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Writes a project directory. */
async function project(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** Runs the real CLI as a child process; resolves with its exit code and output. */
function flotilla(work: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { cwd: work, timeout: 150_000, env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      done({ code, output: `${String(stdout)}\n${String(stderr)}` });
    });
  });
}

test('Add device → the copied command starts the agent on Podman → flotilla deploy → the device page shows the release running and both services Running', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const fleetName = `releaseruns_${stamp}`;
  const user: ApiUser = await registerApiUser(request, newEmail('releaseruns'));
  const org = await apiAs<{ id: number; handle: string }>(request, user, 'POST', '/v7/organization', { name: `Release runs E2E ${stamp}` });
  const work = await mkdtemp(join(tmpdir(), 'flotilla-e2e-release-runs-'));
  workDirs.push(work);
  agentOutput = '';

  // 1. Sign in, create the fleet, add a device with the copied Linux command.
  await signIn(page, user.email);
  const fleetId = await createFleet(page, `Release runs E2E ${stamp}`, fleetName);
  // No poll-interval shortcut: the device polls every 10 minutes by default, so the release
  // reaching it within the test's timeout proves the server told it over the cloud link.
  await page.getByRole('button', { name: 'Add device' }).click();
  const dialog = page.getByRole('dialog', { name: `Add a device to ${fleetName}` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Generate command' }).click();
  const commandBox = dialog.getByRole('textbox', { name: 'Command', exact: true });
  await expect(commandBox).toHaveValue(/^curl -fsSL /);
  const command = await commandBox.inputValue();
  expect(command).toContain(`--api ${baseURL} --fleet ${fleetId} `);

  const prefix = join(work, 'device');
  await mkdir(prefix);
  const agent = spawn('sh', ['-c', command], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FLOTILLA_PREFIX: prefix, FLOTILLA_SYSTEMD: '0', FLOTILLA_FOREGROUND: '1', FLOTILLA_AGENT_ENGINE: 'podman', ...engineEnv() },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  agents.push(agent);
  agent.stdout!.on('data', (d: Buffer) => (agentOutput += d.toString()));
  agent.stderr!.on('data', (d: Buffer) => (agentOutput += d.toString()));

  await expect
    .poll(
      async () => {
        const devices = await apiAs<V7<'device', 'is_online'>>(request, user, 'GET', `/v7/device?$select=is_online&$filter=belongs_to__application eq ${fleetId}`);
        return devices.d.some((d) => d.is_online);
      },
      { timeout: 30_000, message: 'the installed agent did not come online (its output is attached)' },
    )
    .toBe(true);
  const config = JSON.parse(await readFile(join(prefix, 'etc/flotilla/config.json'), 'utf8')) as { uuid: string };
  const deviceUuid = config.uuid;
  deviceUuids.push(deviceUuid);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  const row = page.getByRole('table', { name: 'Devices' }).locator('tbody tr').filter({ has: page.locator(`a[href="/devices/${deviceUuid}"]`) });
  await expect(row).toHaveCount(1);
  await row.locator(`a[href="/devices/${deviceUuid}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${deviceUuid}$`));
  const details = page.getByRole('region', { name: 'Device details' });
  await expect(details).toContainText(/Cloud link\s*Connected/);
  const services = page.getByRole('region', { name: 'Services' });
  await expect(services).toContainText('No services yet');

  // 2. `flotilla deploy` of a two-service project, with the signed-in user's token.
  const source = join(work, 'project');
  const dockerfile = (extra: string) => `FROM ${TEST_BASE_IMAGE}\n${extra}\n`;
  await project(source, {
    'docker-compose.yml': [
      'version: "2.1"',
      'services:',
      '  web:',
      '    build:',
      '      context: ./web',
      '      labels:',
      `        ${TEST_LABEL}: ${testId}`,
      '    command: ["/bin/busybox", "httpd", "-f", "-p", "8080", "-h", "/www"]',
      '    network_mode: none',
      '  worker:',
      '    build:',
      '      context: ./worker',
      '      labels:',
      `        ${TEST_LABEL}: ${testId}`,
      '    command: ["/bin/busybox", "sleep", "3600"]',
      '    network_mode: none',
      '    depends_on: [web]',
      '',
    ].join('\n'),
    'web/Dockerfile': dockerfile(`RUN ["/bin/busybox", "sh", "-c", "mkdir -p /www && echo ${testId} > /www/index.html"]`),
    'worker/Dockerfile': dockerfile(`RUN ["/bin/busybox", "sh", "-c", "echo worker-${testId} > /worker.txt"]`),
  });
  const deploy = await flotilla(work, ['deploy', `${org.handle}/${fleetName}`, '--source', source, '--semver', '1.4.2', '--note', 'e2e release'], {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    FLOTILLA_CONFIG_DIR: join(work, 'cli-config'),
    FLOTILLA_API_URL: baseURL!,
    FLOTILLA_TOKEN: user.token,
    ...engineEnv(),
  });
  expect(deploy.code, deploy.output).toBe(0);
  const commit = /\(commit ([0-9a-f]{32})\)/.exec(deploy.output)?.[1];
  expect(commit, deploy.output).toMatch(/^[0-9a-f]{32}$/);

  // 3. Through the API first, so a failure shows the agent's output: the device runs the release.
  await expect
    .poll(
      async () => {
        const devices = await apiAs<{ d: { is_running__release: { commit: string }[] }[] }>(
          request,
          user,
          'GET',
          `/v7/device?$select=id&$expand=is_running__release($select=commit)&$filter=${encodeURIComponent(`uuid eq '${deviceUuid}'`)}`,
        );
        return devices.d[0]?.is_running__release[0]?.commit ?? null;
      },
      { timeout: 90_000, message: 'the agent did not report the release running (its output is attached)' },
    )
    .toBe(commit);

  // The device page: the release running, both services Running (live updates, no reload).
  await expect(details).toContainText(new RegExp(`Current release\\s*1\\.4\\.2[^(]*\\(${commit!.slice(0, 7)}\\)`), { timeout: 90_000 });
  for (const name of ['web', 'worker']) {
    const service = services.getByRole('listitem', { name });
    await expect(service).toContainText(/Running/, { timeout: 90_000 });
    await expect(service).toContainText('Release 1.4.2');
  }

  // The engine runs the two containers, labelled with the device's uuid.
  const docker = new Docker({ socketPath: new URL(process.env.DOCKER_HOST!).pathname });
  const running = await docker.listContainers({ filters: { label: [`${DEVICE_UUID_LABEL}=${deviceUuid}`], status: ['running'] } });
  expect(running.map((c) => c.Labels['io.flotilla.service-name']).sort()).toEqual(['web', 'worker']);
  expect(new Set(running.map((c) => c.Labels['io.flotilla.release'])).size).toBe(1);

  // Screenshots of the device page with its two running services, at two widths.
  await mkdir(SHOTS, { recursive: true });
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(services.getByRole('listitem', { name: 'worker' })).toContainText('Running');
    await page.screenshot({ path: join(SHOTS, `i14-device-release-running-${width}.png`), fullPage: true });
  }
  expect(problems.errors).toEqual([]);
});
