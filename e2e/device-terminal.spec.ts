import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { TERMINAL_PATH, TERMINAL_RECONNECT } from '@flotilla/model';
import { removeByLabel, removeLabelled, TEST_BASE_IMAGE, TEST_LABEL } from '@flotilla/server/test-engine';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { seriousViolations } from './support/axe';
import { watchPageProblems } from './support/csp';
import { createProvisioningKey, E2E_API } from './support/simulator';
import { startSecondNode } from './support/second-node';
import { newEmail, signIn, submitLogin } from './support/users';

/*
 * Issue 15 item 2, the dashboard's web terminal against a real agent running a real container
 * on the run's Podman engine: the release is built and pushed by the real CLI (`flotilla
 * deploy`), the agent (`startAgent`, engine podman, in the test process) pulls and runs it,
 * and the browser opens a shell in the container through the server and the cloud link.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(repoRoot, 'packages/cli/bin/flotilla.mjs');
const DEVICE_UUID_LABEL = 'io.flotilla.device-uuid';
const testId = `e2e-terminal-${randomBytes(4).toString('hex')}`;
const engineEnv = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'DOCKER_HOST' || k.startsWith('CONTAINERS_')) as [string, string][]);

const agents: RunningAgent[] = [];
const workDirs: string[] = [];
const deviceUuids: string[] = [];

test.afterAll(async () => {
  for (const agent of agents.splice(0)) await agent.stop().catch(() => undefined);
  const engine = { env: engineEnv() };
  for (const uuid of deviceUuids.splice(0)) await removeByLabel(engine, DEVICE_UUID_LABEL, uuid);
  await removeLabelled(engine, testId);
  for (const dir of workDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function flotilla(work: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { cwd: work, timeout: 150_000, env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      done({ code, output: `${String(stdout)}\n${String(stderr)}` });
    });
  });
}

interface RunningDevice {
  owner: ApiUser;
  orgId: number;
  fleetId: number;
  uuid: string;
  agent: RunningAgent;
}

/**
 * An organization and fleet of `owner`, a one-service release (`shell`: busybox sleeping)
 * deployed with the CLI, and a real agent running it on Podman; resolves once the device
 * reports the release running.
 */
async function deviceRunningShell(request: APIRequestContext, tag: string, extraMember?: ApiUser): Promise<RunningDevice> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const owner = await registerApiUser(request, newEmail(tag));
  const orgName = `Terminal E2E ${stamp}`;
  const orgId = extraMember
    ? await organizationWithMember(request, owner, extraMember, orgName)
    : (await apiAs<{ id: number }>(request, owner, 'POST', '/v7/organization', { name: orgName })).id;
  const org = await apiAs<V7<'organization', 'handle'>>(request, owner, 'GET', `/v7/organization(${orgId})?$select=handle`);
  const types = await apiAs<V7<'device_type', 'id'>>(request, owner, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent("slug eq 'raspberrypi4-64'")}`);
  const fleetName = `terminal_${stamp}`;
  const fleet = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/application', {
    app_name: fleetName,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  const work = await mkdtemp(join(tmpdir(), 'flotilla-e2e-terminal-'));
  workDirs.push(work);
  const source = join(work, 'project');
  await mkdir(join(source, 'shell'), { recursive: true });
  await writeFile(
    join(source, 'docker-compose.yml'),
    [
      'version: "2.1"',
      'services:',
      '  shell:',
      '    build:',
      '      context: ./shell',
      '      labels:',
      `        ${TEST_LABEL}: ${testId}`,
      '    command: ["/bin/busybox", "sleep", "3600"]',
      '    network_mode: none',
      '',
    ].join('\n'),
  );
  await writeFile(join(source, 'shell/Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nRUN ["/bin/busybox", "sh", "-c", "echo ${testId} > /id.txt"]\n`);
  const deploy = await flotilla(work, ['deploy', `${org.d[0]!.handle}/${fleetName}`, '--source', source, '--semver', '1.0.0'], {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    FLOTILLA_CONFIG_DIR: join(work, 'cli-config'),
    FLOTILLA_API_URL: E2E_API,
    FLOTILLA_TOKEN: owner.token,
    ...engineEnv(),
  });
  expect(deploy.code, deploy.output).toBe(0);

  const provisioningKey = await createProvisioningKey(request, owner, fleet.id, 'e2e terminal');
  // The registry host the server names in image locations (its public URL, localhost:<port>),
  // as the installer's config.json would carry it.
  const registryEndpoint = `localhost:${new URL(E2E_API).port}`;
  const { config } = normalizeConfig({ apiEndpoint: E2E_API, registryEndpoint, applicationId: fleet.id, deviceType: 'raspberrypi4-64', apiKey: provisioningKey, appUpdatePollInterval: 2_000 });
  deviceUuids.push(config.uuid);
  let agentLog = '';
  const agent = await startAgent({ config, engine: 'podman', engineEnv: engineEnv(), log: (m) => (agentLog += `${m}\n`), reportDebounceMs: 100, stopTimeoutS: 1, statusIntervalMs: 1_000 });
  agents.push(agent);
  await expect
    .poll(
      async () => {
        const devices = await apiAs<{ d: { is_online: boolean; is_running__release: unknown[] }[] }>(
          request,
          owner,
          'GET',
          `/v7/device?$select=is_online&$expand=is_running__release($select=id)&$filter=${encodeURIComponent(`uuid eq '${config.uuid}'`)}`,
        );
        const d = devices.d[0];
        return d !== undefined && d.is_online && d.is_running__release.length === 1;
      },
      { timeout: 90_000 },
    )
    .toBe(true)
    .catch((err: Error) => {
      throw new Error(`the agent did not come online running the release: ${err.message}\n--- agent log ---\n${agentLog.slice(-4000)}`);
    });
  return { owner, orgId, fleetId: fleet.id, uuid: config.uuid, agent };
}

/** The terminal panel of the device summary, its shell service picked. */
async function openShell(page: Page, uuid: string, base = ''): Promise<{ panel: Locator; view: Locator; status: Locator }> {
  await page.goto(`${base}/devices/${uuid}`);
  const panel = page.getByRole('region', { name: 'Terminal' });
  const start = panel.getByRole('button', { name: 'Start terminal session' });
  // The service is offered once its container reports Running.
  await expect(start).toBeEnabled({ timeout: 30_000 });
  await expect(panel.getByRole('combobox', { name: 'Target' })).toHaveText('shell');
  await start.click();
  const view = panel.getByRole('group', { name: 'Terminal: shell' });
  const status = panel.getByRole('status', { name: 'Terminal: shell' });
  await expect(status).toHaveText('Connected', { timeout: 30_000 });
  return { panel, view, status };
}

/** What xterm shows, one string per row (its DOM renderer's rows). */
async function screenLines(view: Locator): Promise<string[]> {
  return (await view.locator('.xterm-rows > div').allInnerTexts()).map((l) => l.replace(/\u00a0/g, ' ').trimEnd());
}

async function typeLine(page: Page, view: Locator, text: string): Promise<void> {
  await view.click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test('Terminal: a shell in the real container answers `echo $((6*7))` with 42, resizing the viewport reaches the TTY, and the device going offline ends in reconnect failed', async ({ page, request }) => {
  test.setTimeout(300_000);
  const problems = await watchPageProblems(page);
  const device = await deviceRunningShell(request, 'terminal');
  await signIn(page, device.owner.email);
  // What the browser sends on its terminal sockets (the resize frames are asserted below).
  const sent: string[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().endsWith(TERMINAL_PATH)) ws.on('framesent', (f) => sent.push(String(f.payload)));
  });
  const { panel, view, status } = await openShell(page, device.uuid);

  // 1. Keystrokes through the server and the cloud link into `docker exec`, and the answer back.
  await typeLine(page, view, 'echo $((6*7))');
  await expect.poll(() => screenLines(view), { message: 'xterm shows 42 on a row of its own' }).toContain('42');
  await expect(panel.getByRole('tab')).toHaveCount(1);

  // 2. Resize: the panel follows the viewport (addon-fit), the TTY gets the new size.
  const sizeOf = async () => ({ cols: Number(await view.getAttribute('data-cols')), rows: Number(await view.getAttribute('data-rows')) });
  const before = await sizeOf();
  await page.setViewportSize({ width: 900, height: 720 });
  await expect.poll(async () => (await sizeOf()).cols, { message: 'the terminal refits to the narrower panel' }).toBeLessThan(before.cols);
  await panel.getByRole('button', { name: 'Expand terminal' }).click();
  await expect(panel.getByRole('button', { name: 'Collapse terminal' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('region', { name: 'Device details' })).toBeHidden();
  await expect.poll(async () => (await sizeOf()).rows, { message: 'the expanded terminal is taller' }).toBeGreaterThan(before.rows);
  const after = await sizeOf();
  await expect
    .poll(() => sent.map((f) => JSON.parse(f) as { event: string; cols?: number; rows?: number }).filter((f) => f.event === 'resize').at(-1), {
      message: 'the last resize frame carries the new size',
    })
    .toEqual({ event: 'resize', cols: after.cols, rows: after.rows });
  await typeLine(page, view, 'stty size');
  await expect
    .poll(() => screenLines(view), { message: `stty size says ${after.rows} ${after.cols}; frames sent: ${sent.filter((f) => !f.includes('"data"')).join(' ')}` })
    .toContain(`${after.rows} ${after.cols}`);
  await panel.getByRole('button', { name: 'Collapse terminal' }).click();
  await expect(page.getByRole('region', { name: 'Device details' })).toBeVisible();

  // 3. A second session is a second tab; output on the inactive one flags unseen activity.
  await panel.getByRole('button', { name: 'Start terminal session' }).click();
  await expect(panel.getByRole('tab')).toHaveCount(2);
  // Inactive views are hidden, so the view locator always finds the active tab's xterm.
  const second = view;
  await expect(panel.getByRole('tab').nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('tab').nth(1)).toContainText('connected', { timeout: 30_000 });
  await typeLine(page, second, 'sleep 2; echo later-$((7*6))');
  await panel.getByRole('tab').first().click();
  await expect(panel.getByRole('tab').nth(1).getByRole('img', { name: 'new activity' })).toBeVisible({ timeout: 20_000 });
  // The tabs from the keyboard: arrow to the flagged tab and select it with Enter.
  await panel.getByRole('tab').first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('tab').nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('tab').nth(1).getByRole('img', { name: 'new activity' })).toHaveCount(0);
  await expect.poll(() => screenLines(second)).toContain('later-42');
  await panel.getByRole('button', { name: 'Close session' }).click();
  await expect(panel.getByRole('tab')).toHaveCount(1);
  await expect(status).toHaveText('Connected');

  // The audit trail: the owner (an administrator) reads this device's sessions.
  await panel.getByRole('button', { name: 'Session history' }).click();
  const history = page.getByRole('dialog', { name: 'Terminal session history' });
  const rows = history.getByRole('table', { name: 'Terminal session history' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // Newest first: the closed second session has an end, the first is still open.
  await expect(rows.nth(0)).toContainText(device.owner.username);
  await expect(rows.nth(0)).toContainText('shell');
  await expect(rows.nth(0).locator('td').nth(4).locator('time')).toHaveCount(1);
  await expect(rows.nth(1).locator('td').nth(4)).toHaveText('Open');
  await history.getByRole('button', { name: 'Close' }).click();
  await expect(history).toBeHidden();

  // 4. The device goes offline (its agent stops): 'SSH session disconnected', then the
  //    reconnection attempts, then 'reconnect failed'.
  await device.agent.stop();
  await expect(status).toHaveText('SSH session disconnected', { timeout: 30_000 });
  await expect(status).toHaveText(new RegExp(`^Reconnecting \\(attempt \\d of ${TERMINAL_RECONNECT.attempts}\\)`), { timeout: 15_000 });
  await expect(status).toHaveText('reconnect failed', { timeout: 60_000 });
  await expect(panel.getByRole('tab').first()).toContainText('failed');
  expect(problems.errors).toEqual([]);
});

test('Terminal: an observer sees the terminal disabled and the server refuses them; a user of another organization is refused', async ({ page, request }) => {
  test.setTimeout(300_000);
  const observer = await registerApiUser(request, newEmail('termobserver'));
  const device = await deviceRunningShell(request, 'termowner', observer);
  const roles = await apiAs<V7<'application_membership_role', 'id'>>(
    request,
    device.owner,
    'GET',
    `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`,
  );
  await apiAs(request, device.owner, 'POST', '/v7/user_application_membership', {
    user: observer.id,
    is_member_of__application: device.fleetId,
    application_membership_role: roles.d[0]!.id,
  });
  const stranger = await registerApiUser(request, newEmail('termstranger'));

  // The observer: the panel says why, and the server refuses a socket opened anyway.
  await signIn(page, observer.email);
  await page.goto(`/devices/${device.uuid}`);
  const panel = page.getByRole('region', { name: 'Terminal' });
  await expect(panel).toContainText("You don't have the required permission for this action");
  await expect(panel.getByRole('button', { name: 'Start terminal session' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Session history' })).toHaveCount(0);

  const refusal = (token: string) =>
    page.evaluate(
      ({ path, token, uuid }) =>
        new Promise<string[]>((done) => {
          const frames: string[] = [];
          const ws = new WebSocket(`ws://${location.host}${path}`);
          ws.onopen = () => ws.send(JSON.stringify({ event: 'authentication', token, uuid, target: 'service:shell', cols: 80, rows: 24 }));
          ws.onmessage = (e) => frames.push(String(e.data));
          ws.onclose = () => done(frames);
        }),
      { path: TERMINAL_PATH, token, uuid: device.uuid },
    );
  const asObserver = (await refusal(observer.token)).map((f) => JSON.parse(f) as { event: string; message?: string });
  expect(asObserver.map((f) => f.event)).toEqual(['unauthorized']);
  const asStranger = (await refusal(stranger.token)).map((f) => JSON.parse(f) as { event: string; message?: string });
  expect(asStranger.map((f) => f.event)).toEqual(['unauthorized']);

  // The owner (an administrator) is let in through the same page. (CSP bypassed in this
  // context only, to inject axe: the panel with a live session has no serious violation.)
  const owner = await page.context().browser()!.newPage({ bypassCSP: true });
  await signIn(owner, device.owner.email);
  const { view } = await openShell(owner, device.uuid);
  await typeLine(owner, view, 'echo $((6*7))');
  await expect.poll(() => screenLines(view)).toContain('42');
  expect(await seriousViolations(owner)).toEqual([]);
  await owner.close();
});

test('Terminal across two server processes: the browser on the second node types into a container whose device links to the first', async ({ page, request }) => {
  test.setTimeout(300_000);
  const problems = await watchPageProblems(page);
  const node = await startSecondNode();
  try {
    // The agent links to the first process (E2E_API); the browser only ever talks to the second.
    const device = await deviceRunningShell(request, 'termnodes');
    await page.goto(`${node.baseURL}/login`);
    await submitLogin(page, device.owner.email);
    await expect(page).toHaveURL(new RegExp(`^${node.baseURL}/fleets$`));
    const terminalSockets: string[] = [];
    page.on('websocket', (ws) => terminalSockets.push(ws.url()));
    const { view } = await openShell(page, device.uuid, node.baseURL);
    expect(terminalSockets).toContain(`${node.baseURL.replace(/^http/, 'ws')}${TERMINAL_PATH}`);
    await typeLine(page, view, 'echo $((6*7))');
    await expect.poll(() => screenLines(view), { message: 'xterm on the second node shows 42' }).toContain('42');

    // Leaving the device's page closes its sessions: the audit trail records the end.
    await page.goto(`${node.baseURL}/fleets`);
    await expect
      .poll(async () => {
        const rows = await apiAs<{ d: { ended_at: string | null }[] }>(
          request,
          device.owner,
          'GET',
          `/v7/terminal_session?$select=ended_at&$filter=${encodeURIComponent(`device/any(d:d/uuid eq '${device.uuid}')`)}`,
        );
        return rows.d.map((r) => r.ended_at !== null);
      })
      .toEqual([true]);
    expect(problems.errors).toEqual([]);
  } finally {
    await node.stop();
  }
});
