import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { newEmail, signIn } from './support/users';

/*
 * Issue 14 item 4, the Linux way in: from the fleet page, Add device → Generate command →
 * the command copied from the dialog runs on "the device" (a child process here: the
 * installer from GET /download/agent/install.sh with FLOTILLA_PREFIX in a temporary directory
 * and no systemd, the agent from GET /download/agent, the run's Podman socket as DOCKER_HOST)
 * → the device registers and shows in the fleet's table, online.
 */

let agent: ChildProcess | undefined;
let prefix: string | undefined;

test.afterAll(async () => {
  // The installer ran in its own process group: the agent (exec'd in the foreground) goes with it.
  // Wait for it to exit before removing its directory: it writes its state on the way out.
  const running = agent;
  if (running?.pid !== undefined && running.exitCode === null) {
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    process.kill(-running.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (running.exitCode === null && running.signalCode === null) process.kill(-running.pid, 'SIGKILL');
  }
  if (prefix) await rm(prefix, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

async function fleetFor(request: Parameters<typeof registerApiUser>[0], admin: ApiUser, stamp: string, orgId?: number): Promise<number> {
  const org = orgId !== undefined ? { id: orgId } : await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: `Add device E2E ${stamp}` });
  const types = await apiAs<V7<'device_type', 'id'>>(request, admin, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent("slug eq 'raspberrypi4-64'")}`);
  const fleet = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/application', {
    app_name: `adddevice_${stamp}`,
    organization: org.id,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  return fleet.id;
}

test('Add device: the copied command installs and starts the agent, and the device shows online in the fleet table', async ({ page, request, context, baseURL }) => {
  test.setTimeout(90_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('adddevice'));
  const fleetId = await fleetFor(request, admin, stamp);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });

  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}`);
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(page.getByText('This fleet has no devices yet.')).toBeVisible();

  // The dialog: the fleet's type by default, a key expiry, the Linux way in first.
  await page.getByRole('button', { name: 'Add device' }).click();
  const dialog = page.getByRole('dialog', { name: `Add a device to adddevice_${stamp}` });
  await expect(dialog.getByLabel('Device type')).toHaveValue('raspberrypi4-64');
  await dialog.getByLabel('Provisioning key name (optional)').fill('e2e linux');
  await dialog.getByLabel('Provisioning key expiry').selectOption('7');
  await expect(dialog.getByRole('tab', { name: 'Linux with Docker or Podman' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('region', { name: 'As a systemd service' }).or(dialog.getByLabel('As a systemd service'))).toContainText(
    'ExecStart=/usr/bin/node /usr/local/lib/flotilla/flotilla-agent.mjs run --config /etc/flotilla/config.json',
  );
  // No key until asked for.
  await expect(dialog.getByRole('textbox', { name: 'Command', exact: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Generate command' }).click();
  const commandBox = dialog.getByRole('textbox', { name: 'Command', exact: true });
  await expect(commandBox).toHaveValue(/^curl -fsSL /);
  const command = await commandBox.inputValue();
  expect(command).toContain(`--api ${baseURL} --fleet ${fleetId} --device-type raspberrypi4-64 --provisioning-key `);
  await dialog.getByRole('button', { name: 'Copy command' }).click();
  await expect(page.getByText('Command copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  // The key exists, with the name and expiry chosen.
  const keys = await apiAs<V7<'api_key', 'name' | 'expiry_date'>>(
    request,
    admin,
    'GET',
    `/v7/api_key?$select=name,expiry_date&$filter=${encodeURIComponent(`is_of__actor/any(a:a/is_of__application/any(f:f/id eq ${fleetId}))`)}`,
  );
  expect(keys.d.map((k) => k.name)).toEqual(['e2e linux']);
  expect(keys.d[0]!.expiry_date).not.toBeNull();

  // "The device": the copied command, as root would run it, without systemd.
  prefix = await mkdtemp(join(tmpdir(), 'flotilla-e2e-device-'));
  let output = '';
  agent = spawn('sh', ['-c', command], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FLOTILLA_PREFIX: prefix, FLOTILLA_SYSTEMD: '0', FLOTILLA_FOREGROUND: '1', DOCKER_HOST: process.env.DOCKER_HOST ?? '' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  agent.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  agent.stderr!.on('data', (d: Buffer) => (output += d.toString()));

  // Registered and online through the API first, so a failure shows the installer's output.
  await expect
    .poll(
      async () => {
        const devices = await apiAs<V7<'device', 'is_online'>>(request, admin, 'GET', `/v7/device?$select=is_online&$filter=belongs_to__application eq ${fleetId}`);
        return devices.d.some((d) => d.is_online);
      },
      { timeout: 30_000, message: `the installed agent did not come online; its output:\n${output}` },
    )
    .toBe(true);
  const config = JSON.parse(await readFile(join(prefix, 'etc/flotilla/config.json'), 'utf8')) as { uuid: string; apiEndpoint: string };
  expect(config.apiEndpoint).toBe(baseURL);

  // The dialog closes; the fleet's table shows the new device, online ("Last seen" now).
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  const row = table.locator('tbody tr').filter({ has: page.locator(`a[href="/devices/${config.uuid}"]`) });
  await expect(row).toHaveCount(1);
  await row.locator(`a[href="/devices/${config.uuid}"]`).click();
  await expect(page.getByRole('region', { name: 'Device details' })).toContainText(/Cloud link\s*Connected/);
  expect(problems.errors).toEqual([]);
});

test('Add device, balenaOS: config.json for a compatible type downloads with a new key; an operator demoted to observer is refused with the reason, then sees the button disabled', async ({ page, request, browser }) => {
  test.setTimeout(90_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('addos'));
  const observer = await registerApiUser(request, newEmail('addosobserver'));
  const orgId = await organizationWithMember(request, admin, observer, `Add device OS E2E ${stamp}`);
  const fleetId = await fleetFor(request, admin, stamp, orgId);
  const roleId = async (name: string) =>
    (await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent(`name eq '${name}'`)}`)).d[0]!.id;
  // An operator first; made an observer while their dialog is open (below).
  const membership = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/user_application_membership', {
    user: observer.id,
    is_member_of__application: fleetId,
    application_membership_role: await roleId('operator'),
  });

  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}/devices`);
  // From the keyboard: the button, the dialog, Escape closes it.
  await page.getByRole('button', { name: 'Add device' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Add a device to adddevice_${stamp}` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Add device' }).click();

  // Only the types that run the fleet's architecture (aarch64): no Intel NUC, no 32-bit Pi 3.
  const types = dialog.getByLabel('Device type');
  const offered = await types.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(offered[0]).toBe('raspberrypi4-64');
  expect(offered).toContain('generic-aarch64');
  expect(offered).not.toContain('intel-nuc');
  expect(offered).not.toContain('raspberrypi3');
  await types.selectOption('generic-aarch64');
  await dialog.getByLabel('Provisioning key expiry').selectOption('never');
  await dialog.getByRole('tab', { name: 'balenaOS' }).click();
  await expect(dialog.getByRole('tabpanel')).toContainText('stock balenaOS image');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download config.json' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('config.json');
  const config = JSON.parse(await readFile((await file.path())!, 'utf8')) as Record<string, unknown>;
  // balenaOS's shape (POST /download-config); the endpoint is the server's public URL.
  expect(config).toMatchObject({ applicationId: fleetId, deviceType: 'generic-aarch64', apiEndpoint: expect.stringMatching(/^http:\/\//), listenPort: 48484 });
  expect(config.apiKey).toEqual(expect.stringMatching(/^[A-Za-z0-9]{20,}$/));
  await expect(page.getByText('config.json downloaded')).toBeVisible();

  // The operator opens the dialog; demoted to observer meanwhile, the server refuses the key
  // and the dialog says why and what to do. Reloaded, the button is disabled.
  const observerContext = await browser.newContext();
  try {
    const observerPage = await observerContext.newPage();
    await signIn(observerPage, observer.email);
    await observerPage.goto(`/fleets/${fleetId}`);
    const button = observerPage.getByRole('button', { name: 'Add device' });
    await button.click();
    const theirs = observerPage.getByRole('dialog', { name: `Add a device to adddevice_${stamp}` });
    await apiAs(request, admin, 'PATCH', `/v7/user_application_membership(${membership.id})`, { application_membership_role: await roleId('observer') });
    await theirs.getByRole('button', { name: 'Generate command' }).click();
    await expect(theirs.getByRole('alert')).toContainText(
      "The provisioning key could not be created: You don't have the required permission for this action. Operators and above may add devices",
    );
    await expect(theirs.getByRole('textbox', { name: 'Command', exact: true })).toHaveCount(0);
    await observerPage.reload();
    await expect(button).toBeDisabled();
  } finally {
    await observerContext.close();
  }
  expect(problems.errors).toEqual([]);
});
