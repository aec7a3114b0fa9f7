import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { constants as zlib, createGzip, type Gzip } from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CONTAINER_LABELS, normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { podman, removeByLabel, removeLabelled, TEST_BASE_IMAGE, TEST_LABEL } from '@flotilla/server/test-engine';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { organizationWithFleet } from './support/fleets';
import { startSecondNode } from './support/second-node';
import { deployRelease, newCommit } from './support/releases';
import { createProvisioningKey, E2E_API } from './support/simulator';
import { newEmail, signIn } from './support/users';

/*
 * Issue 15, the device summary's logs panel (spec 2 §2, §4 "Log stream", §9) against the real
 * server: a device registered and streaming as a stock balena supervisor does (its device
 * key, `POST /device/v2/{uuid}/log-stream` gzip NDJSON flushed line by line, and batches on
 * `/logs`); the browser reads through balena-sdk's `logs.subscribe` / `logs.history`. Also: a
 * browser on a second server process (same database and Redis) seeing lines streamed to the
 * first, and a real container's lines shipped by a real agent on the run's Podman engine.
 */

const DEVICE_TYPE = 'raspberrypi4-64';
const engineEnv = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'DOCKER_HOST' || k.startsWith('CONTAINERS_')) as [string, string][]);
const hex = (n: number) => randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);

interface StockDevice {
  uuid: string;
  id: number;
  deviceKey: string;
}

/** POST /device/register as balenaOS does with a provisioning key; the device key is `api_key`. */
async function registerStockDevice(request: APIRequestContext, provisioningKey: string, fleetId: number, osVariant: 'prod' | 'dev' = 'prod'): Promise<StockDevice> {
  const uuid = hex(32);
  const deviceKey = hex(32);
  const res = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid, device_type: DEVICE_TYPE, api_key: deviceKey, supervisor_version: '16.1.0', os_version: 'balenaOS 5.3.0', os_variant: osVariant },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  return { uuid, id, deviceKey };
}

interface LogLineIn {
  message: string;
  timestamp: number;
  isSystem?: boolean;
  isStdErr?: boolean;
  serviceId?: number;
}

/**
 * The supervisor's log stream: one long-lived chunked POST, gzip, one JSON object per line,
 * each line flushed with Z_SYNC_FLUSH so the server reads it at once.
 */
class SupervisorLogStream {
  private readonly gzip: Gzip;
  private readonly req: ClientRequest;
  readonly response: Promise<number>;

  constructor(api: string, device: StockDevice) {
    const url = new URL(`/device/v2/${device.uuid}/log-stream`, api);
    this.req = httpRequest(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${device.deviceKey}`, 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip' },
    });
    this.response = new Promise((resolve, reject) => {
      this.req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      this.req.on('error', reject);
    });
    // Nothing to report when the test ends the stream itself.
    this.response.catch(() => undefined);
    this.gzip = createGzip();
    this.gzip.pipe(this.req);
  }

  async send(lines: LogLineIn[]): Promise<void> {
    for (const line of lines) this.gzip.write(`${JSON.stringify(line)}\n`);
    await new Promise<void>((done) => this.gzip.flush(zlib.Z_SYNC_FLUSH, () => done()));
  }

  async close(): Promise<void> {
    await new Promise<void>((done) => this.gzip.end(() => done()));
    await this.response.catch(() => undefined);
  }
}

/** `POST /device/v2/{uuid}/logs`: a batch of at most 10 lines, as the device key. */
async function sendBatch(request: APIRequestContext, device: StockDevice, lines: LogLineIn[]): Promise<void> {
  const res = await request.post(`/device/v2/${device.uuid}/logs`, { headers: { Authorization: `Bearer ${device.deviceKey}` }, data: lines });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

async function storedLines(request: APIRequestContext, user: ApiUser, uuid: string): Promise<{ message: string }[]> {
  const res = await request.get(`/device/v2/${uuid}/logs?count=all`, { headers: { Authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { message: string }[];
}

async function serviceIds(request: APIRequestContext, user: ApiUser, fleetId: number): Promise<Record<string, number>> {
  const res = await apiAs<V7<'service', 'id' | 'service_name'>>(request, user, 'GET', `/v7/service?$select=id,service_name&$filter=application%20eq%20${fleetId}`);
  return Object.fromEntries(res.d.map((s) => [s.service_name, s.id]));
}

/**
 * A fleet with services main and worker (its release running) and a registered device; with
 * `member`, the fleet's organization has that user as a member.
 */
async function setUp(request: APIRequestContext, tag: string, member?: ApiUser, osVariant: 'prod' | 'dev' = 'prod') {
  const stamp = `${Date.now().toString(36)}${hex(4)}`;
  const admin = await registerApiUser(request, newEmail(`${tag}admin`));
  const fleetId = member
    ? await fleetInOrganization(request, admin, await organizationWithMember(request, admin, member, `Logs E2E ${tag} ${stamp}`), `logs_${tag}_${stamp}`)
    : (await organizationWithFleet(request, admin, `Logs E2E ${tag} ${stamp}`, `logs_${tag}_${stamp}`, DEVICE_TYPE)).fleetId;
  const releaseId = await deployRelease(request, admin, fleetId, {
    commit: newCommit(),
    composition: { version: '2.1', services: { main: { build: './main' }, worker: { build: './worker' } } },
    services: [{ name: 'main' }, { name: 'worker' }],
    semver: '1.0.0',
  });
  await apiAs(request, admin, 'PATCH', `/v7/application(${fleetId})`, { should_track_latest_release: false, should_be_running__release: releaseId });
  const ids = await serviceIds(request, admin, fleetId);
  const device = await registerStockDevice(request, await createProvisioningKey(request, admin, fleetId), fleetId, osVariant);
  return { stamp, admin, fleetId, ids, device };
}

const logPanel = (page: Page) => page.getByRole('region', { name: 'Logs' });
const logLines = (page: Page) => logPanel(page).getByTestId('device-log-line');

test('logs panel: a stock supervisor stream shows live and after reload; filters; UTC and hidden timestamps persist; download; expand', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const { admin, ids, device } = await setUp(request, 'live');

  await signIn(page, admin.email);
  await page.goto(`/devices/${device.uuid}`);
  const panel = logPanel(page);
  // Nothing stored, nothing streaming: 'No logs yet' after 3 s.
  await expect(panel.getByText('No logs yet')).toBeVisible();
  await expect(panel.getByTestId('device-logs-status')).toHaveAttribute('data-status', 'live');

  const stream = new SupervisorLogStream(E2E_API, device);
  try {
    const t0 = Date.UTC(2026, 0, 15, 10, 30, 0, 0);
    await stream.send([
      { message: 'Supervisor starting', timestamp: t0, isSystem: true },
      { message: '\u001b[32mhello from main\u001b[0m', timestamp: t0 + 1, serviceId: ids.main },
      { message: 'worker is failing', timestamp: t0 + 2, serviceId: ids.worker, isStdErr: true },
    ]);
    await expect(logLines(page)).toHaveCount(3);
    await expect(logLines(page).nth(0)).toHaveAttribute('data-system', 'true');
    await expect(logLines(page).nth(0).getByTestId('device-log-source')).toHaveText('System');
    // ANSI colour codes are stripped; the line is named after its service.
    await expect(logLines(page).nth(1).getByTestId('device-log-message')).toHaveText('hello from main');
    await expect(logLines(page).nth(1).getByTestId('device-log-source')).toHaveText('main');
    await expect(logLines(page).nth(2)).toHaveAttribute('data-stderr', 'true');
    await expect(logLines(page).nth(2)).toContainText('[stderr]');
    // Timestamps ISO with the browser's offset by default (Chromium here runs in UTC or not: either way an offset).
    await expect(logLines(page).nth(0).getByTestId('device-log-timestamp')).toHaveText(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);

    // A batch upload too, arriving live.
    await sendBatch(request, device, [{ message: 'batch line', timestamp: t0 + 3, serviceId: ids.main }]);
    await expect(logLines(page)).toHaveCount(4);

    // Filters: by source (system, a service) and by text.
    await panel.getByRole('button', { name: 'System logs', pressed: true }).click();
    await expect(logLines(page)).toHaveCount(3);
    await expect(panel.getByText('Supervisor starting')).toHaveCount(0);
    await panel.getByRole('button', { name: 'worker', pressed: true }).click();
    await expect(logLines(page)).toHaveCount(2);
    await panel.getByRole('button', { name: 'System logs', pressed: false }).click();
    await panel.getByRole('button', { name: 'worker', pressed: false }).click();
    await expect(logLines(page)).toHaveCount(4);
    await panel.getByLabel('Filter lines').fill('HELLO');
    await expect(logLines(page)).toHaveCount(1);
    await expect(logLines(page).first()).toContainText('hello from main');
    await expect(panel.getByText('1 of 4 lines')).toBeVisible();
    await panel.getByLabel('Filter lines').fill('');
    await expect(logLines(page)).toHaveCount(4);

    // UTC mode and hidden timestamps, kept across a reload (localStorage, spec 2 §9 names).
    await panel.getByRole('switch', { name: 'UTC' }).check();
    await expect(logLines(page).nth(0).getByTestId('device-log-timestamp')).toHaveText('2026-01-15T10:30:00.000Z');
    expect(await page.evaluate(() => window.localStorage.getItem('device_logs_utc_mode'))).toBe('true');

    // After a reload the stored lines come back as history, in UTC.
    await page.reload();
    await expect(logLines(page)).toHaveCount(4);
    await expect(logPanel(page).getByRole('switch', { name: 'UTC' })).toBeChecked();
    await expect(logLines(page).nth(1).getByTestId('device-log-timestamp')).toHaveText('2026-01-15T10:30:00.001Z');
    await logPanel(page).getByRole('switch', { name: 'Hide timestamps' }).check();
    await expect(logPanel(page).getByTestId('device-log-timestamp')).toHaveCount(0);
    await page.reload();
    await expect(logLines(page)).toHaveCount(4);
    await expect(logPanel(page).getByRole('switch', { name: 'Hide timestamps' })).toBeChecked();
    await expect(logPanel(page).getByTestId('device-log-timestamp')).toHaveCount(0);
    await logPanel(page).getByRole('switch', { name: 'Hide timestamps' }).uncheck();

    // Live again after the reload.
    await stream.send([{ message: 'after reload', timestamp: t0 + 4, serviceId: ids.worker }]);
    await expect(logLines(page)).toHaveCount(5);
    await expect(logLines(page).nth(4)).toContainText('after reload');

    // Download: every stored line, one per entry with timestamp and service, named {uuid}_logs_{timestamp}.txt.
    const downloading = page.waitForEvent('download');
    await logPanel(page).getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${device.uuid}_logs_\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z\\.txt$`));
    const stream2 = await download.createReadStream();
    let text = '';
    for await (const chunk of stream2) text += String(chunk);
    expect(text.split('\n').filter(Boolean)).toEqual([
      '2026-01-15T10:30:00.000Z [System] Supervisor starting',
      '2026-01-15T10:30:00.001Z [main] hello from main',
      '2026-01-15T10:30:00.002Z [worker] (stderr) worker is failing',
      '2026-01-15T10:30:00.003Z [main] batch line',
      '2026-01-15T10:30:00.004Z [worker] after reload',
    ]);

    // Expand: the logs panel alone (no details card, no metrics), lines kept; collapse brings them back.
    await logPanel(page).getByRole('button', { name: 'Expand logs' }).click();
    await expect(page.getByRole('region', { name: 'Device details' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Metrics' })).toHaveCount(0);
    await expect(logLines(page)).toHaveCount(5);
    await logPanel(page).getByRole('button', { name: 'Collapse logs' }).click();
    await expect(page.getByRole('region', { name: 'Device details' })).toBeVisible();
    await expect(logLines(page)).toHaveCount(5);
  } finally {
    await stream.close();
  }
  expect(problems.errors).toEqual([]);
});

test('logs panel: many lines render virtualised, follow the tail, and offer "Jump to latest" after scrolling up (keyboard)', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { admin, ids, device } = await setUp(request, 'many');
  await signIn(page, admin.email);
  await page.goto(`/devices/${device.uuid}`);
  await expect(logPanel(page).getByTestId('device-logs-status')).toHaveAttribute('data-status', 'live');
  const stream = new SupervisorLogStream(E2E_API, device);
  try {
    const t0 = Date.now();
    await stream.send(Array.from({ length: 600 }, (_, i) => ({ message: `numbered line ${i + 1}`, timestamp: t0 + i, serviceId: ids.main })));
    const log = logPanel(page).getByRole('log', { name: 'Device logs' });
    // The page scrolled so the whole list shows (in view below means in the list's view).
    await page.setViewportSize({ width: 1280, height: 1000 });
    await log.scrollIntoViewIfNeeded();
    // The newest line is in view; the oldest is not even in the DOM (only the lines in view are).
    await expect(log.getByText('numbered line 600', { exact: true })).toBeInViewport();
    await expect(log.getByText('numbered line 1', { exact: true })).toHaveCount(0);
    expect(await logLines(page).count()).toBeLessThan(200);
    await expect(logPanel(page).getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);

    // The keyboard scrolls the focused list to the top: the panel stops following.
    await log.focus();
    await page.keyboard.press('Home');
    await expect(log.getByText('numbered line 1', { exact: true })).toBeInViewport();
    const jump = logPanel(page).getByRole('button', { name: 'Jump to latest' });
    await expect(jump).toBeVisible();
    await stream.send([{ message: 'numbered line 601', timestamp: t0 + 600, serviceId: ids.main }]);
    // Still reading the top: the new line does not pull the view down.
    await expect(log.getByText('numbered line 1', { exact: true })).toBeInViewport();
    await jump.click();
    await expect(log.getByText('numbered line 601', { exact: true })).toBeInViewport();
    await expect(jump).toHaveCount(0);
    // Following again: the next line comes into view by itself.
    await stream.send([{ message: 'numbered line 602', timestamp: t0 + 601, serviceId: ids.main }]);
    await expect(log.getByText('numbered line 602', { exact: true })).toBeInViewport();
  } finally {
    await stream.close();
  }
});

test('logs panel: clearing needs the right (an observer sees it disabled), a developer clears after confirming', async ({ page, request, browser }) => {
  test.setTimeout(90_000);
  const observer = await registerApiUser(request, newEmail('logsobserver'));
  const { admin, fleetId, ids, device } = await setUp(request, 'clear', observer);
  await sendBatch(request, device, [
    { message: 'first line', timestamp: Date.now() - 1000, serviceId: ids.main },
    { message: 'second line', timestamp: Date.now(), serviceId: ids.main },
  ]);

  // The observer (of this fleet) cannot clear: the button is disabled with the denial tooltip.
  await addFleetMember(request, admin, observer, fleetId, 'observer');
  const observerContext = await browser.newContext();
  try {
    const observerPage = await observerContext.newPage();
    await signIn(observerPage, observer.email);
    await observerPage.goto(`/devices/${device.uuid}`);
    await expect(logLines(observerPage)).toHaveCount(2);
    const clear = logPanel(observerPage).getByRole('button', { name: 'Clear' });
    await expect(clear).toBeDisabled();
    await clear.locator('..').hover();
    await expect(observerPage.getByRole('tooltip')).toHaveText("You don't have the required permission for this action");
    // The server refuses it too.
    const refused = await request.delete(`/device/v2/${device.uuid}/logs`, { headers: { Authorization: `Bearer ${observer.token}` } });
    expect(refused.status()).toBeGreaterThanOrEqual(400);
    expect(await storedLines(request, admin, device.uuid)).toHaveLength(2);
  } finally {
    await observerContext.close();
  }

  // The administrator (a developer's right and more) clears after confirming.
  await signIn(page, admin.email);
  await page.goto(`/devices/${device.uuid}`);
  await expect(logLines(page)).toHaveCount(2);
  await logPanel(page).getByRole('button', { name: 'Clear' }).click();
  const confirm = page.getByRole('dialog', { name: "Clear the device's logs?" });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect(await storedLines(request, admin, device.uuid)).toHaveLength(2);
  await logPanel(page).getByRole('button', { name: 'Clear' }).click();
  await confirm.getByRole('button', { name: 'Clear logs' }).click();
  await expect(page.getByText('Logs cleared')).toBeVisible();
  await expect(logLines(page)).toHaveCount(0);
  await expect(logPanel(page).getByText('No logs yet')).toBeVisible();
  expect(await storedLines(request, admin, device.uuid)).toEqual([]);
  await page.reload();
  await expect(logPanel(page).getByText('No logs yet')).toBeVisible();
  await expect(logLines(page)).toHaveCount(0);
});

test('logs panel: a device in local mode shows that logs are not available', async ({ page, request }) => {
  // Local mode needs a development OS variant (spec 2 §9).
  const { admin, device } = await setUp(request, 'local', undefined, 'dev');
  await apiAs(request, admin, 'POST', '/v7/device_config_variable', { device: device.id, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' });
  await signIn(page, admin.email);
  await page.goto(`/devices/${device.uuid}`);
  await expect(logPanel(page).getByText('Logs are not available in local mode')).toBeVisible();
  await expect(logPanel(page).getByRole('log')).toHaveCount(0);
});

test('logs panel across two server processes: the browser on the second node sees lines the device streams to the first, and reconnects when that node restarts', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { admin, ids, device } = await setUp(request, 'twonodes');
  let second = await startSecondNode();
  const context = await browser.newContext({ baseURL: second.baseURL });
  // The device's stream goes to the first process (Playwright's server).
  const stream = new SupervisorLogStream(E2E_API, device);
  try {
    const page = await context.newPage();
    const problems = await watchPageProblems(page);
    await signIn(page, admin.email);
    await page.goto(`/devices/${device.uuid}`);
    expect(new URL(page.url()).origin).toBe(second.baseURL);
    await expect(logPanel(page).getByTestId('device-logs-status')).toHaveAttribute('data-status', 'live');
    await stream.send([{ message: 'via the first node', timestamp: Date.now(), serviceId: ids.main }]);
    await expect(logLines(page)).toHaveCount(1);
    await expect(logLines(page).first()).toContainText('via the first node');
    await stream.send([
      { message: 'second line', timestamp: Date.now(), serviceId: ids.worker },
      { message: 'third line', timestamp: Date.now(), isSystem: true },
    ]);
    await expect(logLines(page)).toHaveCount(3);
    await expect(logLines(page).nth(2)).toContainText('third line');
    // And as history from the second node after a reload.
    await page.reload();
    await expect(logLines(page)).toHaveCount(3);
    expect(problems.errors).toEqual([]);

    // The second node shuts down (it ends its log streams): the panel says it is reconnecting,
    // keeps its lines, and once a node answers on that address again it streams anew (no history).
    await second.stop();
    await expect(logPanel(page).getByTestId('device-logs-status')).toHaveAttribute('data-status', 'reconnecting');
    await expect(logPanel(page).getByTestId('device-logs-status')).toHaveText('Reconnecting…');
    await expect(logLines(page)).toHaveCount(3);
    second = await startSecondNode();
    await expect(logPanel(page).getByTestId('device-logs-status')).toHaveAttribute('data-status', 'live', { timeout: 30_000 });
    await stream.send([{ message: 'after the node came back', timestamp: Date.now(), serviceId: ids.main }]);
    await expect(logLines(page)).toHaveCount(4);
    await expect(logLines(page).nth(3)).toContainText('after the node came back');
  } finally {
    await stream.close();
    await context.close();
    await second.stop();
  }
});

test('logs panel: a real container writes lines, a real agent ships them, the panel shows them live', async ({ page, request }) => {
  test.setTimeout(180_000);
  const engine = { env: engineEnv() };
  const testId = `e2e-device-logs-${hex(8)}`;
  const work = await mkdtemp(join(tmpdir(), 'flotilla-e2e-device-logs-'));
  let agent: RunningAgent | undefined;
  try {
    const stamp = `${Date.now().toString(36)}${hex(4)}`;
    const admin = await registerApiUser(request, newEmail('logsagent'));
    const { fleetId } = await organizationWithFleet(request, admin, `Logs E2E agent ${stamp}`, `logs_agent_${stamp}`, DEVICE_TYPE);

    // An image FROM the offline base (labelled for cleanup), pushed to the server's registry.
    await writeFile(join(work, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\n`);
    const tag = `localhost/flotilla-e2e/${testId}:1`;
    await podman(engine, ['build', '-q', '-t', tag, work]);
    const script = 'echo "hello from a real container"; echo "a real stderr line" >&2; i=0; while true; do i=$((i+1)); echo "tick $i"; /bin/busybox sleep 5; done';
    const composition = { version: '2.1', services: { app: { command: ['/bin/busybox', 'sh', '-c', script], labels: { [TEST_LABEL]: testId } } } };
    const release = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/release', {
      belongs_to__application: fleetId, commit: hex(32), status: 'running', source: 'cloud', composition,
    });
    const service = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/service', { application: fleetId, service_name: 'app' });
    const image = await apiAs<{ id: number; is_stored_at__image_location: string }>(request, admin, 'POST', '/v7/image', { is_a_build_of__service: service.id, status: 'running' });
    const digestFile = join(work, 'digest');
    await podman(engine, ['push', '-q', '--creds', `${admin.username}:${admin.token}`, '--digestfile', digestFile, tag, `${image.is_stored_at__image_location}:latest`]);
    const digest = (await readFile(digestFile, 'utf8')).trim();
    await apiAs(request, admin, 'POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release.id });
    await apiAs(request, admin, 'PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: digest });
    await apiAs(request, admin, 'PATCH', `/v7/release(${release.id})`, { status: 'success' });
    await apiAs(request, admin, 'PATCH', `/v7/application(${fleetId})`, { should_track_latest_release: false, should_be_running__release: release.id });

    // The real agent (as `flotilla-agent run --engine podman`), in this process.
    const provisioningKey = await createProvisioningKey(request, admin, fleetId);
    // The registry host as the image location names it (the server's public host), as
    // config.json's registryEndpoint tells a device.
    const registryEndpoint = image.is_stored_at__image_location.split('/')[0]!;
    const { config } = normalizeConfig({ apiEndpoint: E2E_API, applicationId: fleetId, deviceType: DEVICE_TYPE, apiKey: provisioningKey, appUpdatePollInterval: 1_000, registryEndpoint });
    // `logs: {}`: ship the device's logs, as `flotilla-agent run` does (the library leaves them off).
    agent = await startAgent({ config, engine: 'podman', engineEnv: { DOCKER_HOST: process.env.DOCKER_HOST }, log: () => {}, stopTimeoutS: 1, logs: {} });
    const uuid = agent.config().uuid;

    // The container runs (its first line is stored) before the page opens: starting it adds
    // network interfaces on this host, and Chromium aborts the requests in flight when the
    // host's network changes (ERR_NETWORK_CHANGED), which can fail the page's route chunk.
    await expect
      // (404 until the agent has registered the device.)
      .poll(async () => JSON.stringify(await apiAs(request, admin, 'GET', `/device/v2/${uuid}/logs`).catch(() => [])).includes('hello from a real container'), { timeout: 90_000 })
      .toBe(true);
    const problems = await watchPageProblems(page);
    await signIn(page, admin.email);
    await page.goto(`/devices/${uuid}`);
    const hello = logLines(page).filter({ hasText: 'hello from a real container' });
    // The page's own errors are the first thing to know if the line never shows (a CI run saw
    // the route's "This page could not be loaded" once, without saying why).
    await expect(hello)
      .toHaveCount(1, { timeout: 90_000 })
      .catch((err: Error) => {
        throw new Error(`${err.message}\npage errors:\n${problems.errors.join('\n') || '(none)'}`);
      });
    await expect(hello.getByTestId('device-log-source')).toHaveText('app');
    const stderr = logLines(page).filter({ hasText: 'a real stderr line' });
    await expect(stderr).toHaveAttribute('data-stderr', 'true');
    // Live: a tick newer than any the page has shown arrives without a reload.
    const ticks = async () => Math.max(0, ...(await logLines(page).filter({ hasText: /tick \d+$/ }).allTextContents()).map((t) => Number(/tick (\d+)$/.exec(t)?.[1] ?? 0)));
    const shown = await ticks();
    await expect(logLines(page).filter({ hasText: new RegExp(`tick ${shown + 1}$`) })).toHaveCount(1, { timeout: 30_000 });
  } finally {
    const uuid = agent?.config().uuid;
    await agent?.stop();
    if (uuid) await removeByLabel(engine, CONTAINER_LABELS.deviceUuid, uuid);
    await removeLabelled(engine, testId);
    await rm(work, { recursive: true, force: true });
  }
});

async function fleetInOrganization(request: APIRequestContext, admin: ApiUser, orgId: number, name: string): Promise<number> {
  const types = await apiAs<V7<'device_type', 'id'>>(request, admin, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent(`slug eq '${DEVICE_TYPE}'`)}`);
  const fleet = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/application', {
    app_name: name,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  return fleet.id;
}

async function addFleetMember(request: APIRequestContext, admin: ApiUser, member: ApiUser, fleetId: number, role: string): Promise<void> {
  const roles = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent(`name eq '${role}'`)}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: member.id, is_member_of__application: fleetId, application_membership_role: roles.d[0]!.id });
}
