import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { arrangeSql } from './support/db';
import { organizationWithFleet } from './support/fleets';
import { createProvisioningKey, simulateFleet } from './support/simulator';
import { startEngineDevice, type EngineDevice } from './support/engine-device';
import { startSecondNode, type SecondNode } from './support/second-node';
import { newEmail, signIn, submitLogin } from './support/users';

/*
 * Issue 15 item 3: /devices/{uuid}/diagnostics against a real agent on the run's Podman
 * engine. Health checks run on the device and come back as rows; diagnostics show the
 * device's facts and download as {uuid}_diagnostics_{timestamp}.txt with STDOUT and STDERR
 * sections; the supervisor state tab shows the device's current state (over its cloud link)
 * and the server's target state. The browser is on a second server process while the
 * device's cloud link is held by the first (runs and reads cross the Redis bus). A fleet
 * observer has no diagnostics tab and the URL says so.
 */

const devices: EngineDevice[] = [];
let node: SecondNode | undefined;
test.afterAll(async () => {
  for (const d of devices.splice(0)) await d.stop();
  await node?.stop();
});

test('health checks, diagnostics with its download, and supervisor state of a real agent linked to another server process; an observer does not see the tab', async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('diagowner'));
  const observer = await registerApiUser(request, newEmail('diagobserver'));
  const orgId = await organizationWithMember(request, owner, observer, `Diagnostics E2E ${stamp}`);
  const types = await apiAs<V7<'device_type', 'id'>>(request, owner, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent("slug eq 'raspberrypi3'")}`);
  const fleet = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/application', {
    app_name: `diagnostics_${stamp}`,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  const roles = await apiAs<V7<'application_membership_role', 'id'>>(request, owner, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, owner, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: fleet.id, application_membership_role: roles.d[0]!.id });
  const device = await startEngineDevice(request, owner, fleet.id, {
    deviceType: 'raspberrypi3',
    services: { main: 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done' },
  });
  devices.push(device);

  // The agent's link is on the first process (E2E_API); the browser goes to the second.
  node = await startSecondNode();
  await page.goto(`${node.baseURL}/login`);
  await submitLogin(page, owner.email);
  await expect(page).toHaveURL(new RegExp(`^${node.baseURL}/fleets$`));
  await page.goto(`${node.baseURL}/devices/${device.uuid}`);
  await page.getByRole('tablist', { name: 'Device sections' }).getByRole('tab', { name: 'Diagnostics' }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${device.uuid}/diagnostics$`));
  const sections = page.getByRole('tablist', { name: 'Diagnostics sections' });
  await expect(sections.getByRole('tab')).toHaveText(['Health checks', 'Diagnostics', 'Supervisor state']);

  // Health checks: never run, then Run checks → the device's real checks as rows.
  const checks = page.getByRole('region', { name: 'Health checks' });
  await expect(checks.getByLabel('State: Idle')).toBeVisible();
  await expect(checks).toContainText('No health checks have run on this device yet.');
  await checks.getByRole('button', { name: 'Run checks' }).click();
  await expect(checks.getByLabel('State: Done')).toBeVisible({ timeout: 90_000 });
  const table = checks.getByRole('table', { name: 'Health checks' });
  const engineRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'check_container_engine' }) });
  await expect(engineRow).toContainText('Passed');
  await expect(table.getByRole('rowheader')).not.toHaveCount(0);
  await expect(checks).toContainText('Last run');

  // Diagnostics: Run diagnostics → in progress → the device's facts, then the download.
  await sections.getByRole('tab', { name: 'Diagnostics' }).click();
  await expect(page).toHaveURL(/\?tab=diagnostics$/);
  const diagnose = page.getByRole('region', { name: 'Diagnostics' });
  await diagnose.getByRole('button', { name: 'Run diagnostics' }).click();
  await expect(diagnose.getByLabel('State: In progress')).toBeVisible();
  await expect(diagnose.getByLabel('State: Done')).toBeVisible({ timeout: 150_000 });
  const stdout = diagnose.getByRole('region', { name: 'STDOUT' });
  await expect(stdout).toContainText('=== container engine ===');
  await expect(stdout).toContainText(device.uuid.slice(0, 7));
  await expect(diagnose.getByRole('region', { name: 'STDERR' })).toBeVisible();
  const download = page.waitForEvent('download');
  await diagnose.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${device.uuid}_diagnostics_\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z\\.txt$`));
  const text = await readFile((await file.path())!, 'utf8');
  expect(text).toMatch(/^STDOUT\n/);
  expect(text).toContain('=== container engine ===');
  expect(text.indexOf('\nSTDERR\n')).toBeGreaterThan(text.indexOf('=== container engine ==='));

  // A reload keeps the tab and shows the same stored run.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Diagnostics' }).getByLabel('State: Done')).toBeVisible();

  // Supervisor state: current (from the device) and target (v3 for the agent's supervisor 14).
  await page.getByRole('tablist', { name: 'Diagnostics sections' }).getByRole('tab', { name: 'Supervisor state' }).click();
  const current = page.getByRole('region', { name: 'Current state' });
  await expect(current.locator('pre')).toContainText('"api_port"', { timeout: 30_000 });
  const target = page.getByRole('region', { name: 'Target state' });
  await expect(target).toContainText('Target state (v3)');
  await expect(target.locator('pre')).toContainText(device.uuid);
  expect(problems.errors).toEqual([]);

  // An observer: no Diagnostics tab, and the URL says unauthorized.
  const theirs = await browser.newContext();
  try {
    const observerPage = await theirs.newPage();
    await signIn(observerPage, observer.email);
    await observerPage.goto(`/devices/${device.uuid}`);
    const tabs = observerPage.getByRole('tablist', { name: 'Device sections' });
    await expect(tabs.getByRole('tab')).toHaveText(['Summary', 'Variables', 'Configuration', 'Actions', 'Settings', 'Location']);
    await observerPage.goto(`/devices/${device.uuid}/diagnostics`);
    await expect(observerPage.getByText('unauthorized to view or edit')).toBeVisible();
    await expect(observerPage.getByRole('button', { name: 'Run checks' })).toHaveCount(0);
  } finally {
    await theirs.close();
  }
});

test('an offline device: a refused run ends in error with a danger toast; runs are disabled with the reason, the OS warning below 2.11.0, the offline supervisor message and the v2 target state below supervisor 13', async ({ page, request }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('diagoffline'));
  const { fleetId } = await organizationWithFleet(request, owner, `Diagnostics offline E2E ${stamp}`, `diagoff_${stamp}`, 'generic-amd64');
  const provisioningKey = await createProvisioningKey(request, owner, fleetId);
  const simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: 'generic-amd64', count: 1 });
  const uuid = simulation.devices[0]!.uuid;
  const online = async () =>
    (await apiAs<V7<'device', 'is_online'>>(request, owner, 'GET', `/v7/device?$select=is_online&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`)).d[0]?.is_online;
  await expect.poll(online, { timeout: 30_000 }).toBe(true);
  await signIn(page, owner.email);
  await page.goto(`/devices/${uuid}/diagnostics?tab=diagnostics`);
  const run = page.getByRole('region', { name: 'Diagnostics' }).getByRole('button', { name: 'Run diagnostics' });
  await expect(run).toBeEnabled();

  // The device drops off while the page still shows it online: the server refuses the run,
  // the tab moves to error and a danger toast says why (spec 2 §4 diagnostics run).
  await simulation.stop();
  await expect.poll(online, { timeout: 30_000 }).toBe(false);
  await run.click();
  await expect(page.getByText('Diagnostics failed: device must be online')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Diagnostics' }).getByLabel('State: Error')).toBeVisible();

  // History the device would report itself: an old OS and an old supervisor.
  await arrangeSql("UPDATE device SET os_version = 'balenaOS 2.10.3', supervisor_version = '12.1.0' WHERE uuid = $1", [uuid]);
  await page.goto(`/devices/${uuid}/diagnostics`);
  const checks = page.getByRole('region', { name: 'Health checks' });
  await expect(checks.getByRole('alert')).toContainText('Health checks need a host OS of version 2.11.0 or newer');
  await expect(checks.getByRole('button', { name: 'Run checks' })).toBeDisabled();
  await expect(checks).toContainText('device must be online');

  await page.getByRole('tablist', { name: 'Diagnostics sections' }).getByRole('tab', { name: 'Diagnostics' }).click();
  const diagnose = page.getByRole('region', { name: 'Diagnostics' });
  await expect(diagnose.getByRole('button', { name: 'Run diagnostics' })).toBeDisabled();
  await expect(diagnose).toContainText('device must be online');

  await page.getByRole('tablist', { name: 'Diagnostics sections' }).getByRole('tab', { name: 'Supervisor state' }).click();
  await expect(page.getByRole('region', { name: 'Current state' })).toContainText('The device is offline: its cloud link to the server is down');
  await expect(page.getByRole('region', { name: 'Current state' })).not.toContainText('Supervisor Current State error');
  const target = page.getByRole('region', { name: 'Target state' });
  await expect(target).toContainText('Target state (v2)');
  // The v2 body ({local, dependent}) names the fleet's app under `local`.
  await expect(target.locator('pre')).toContainText('"local"');
  await expect(target.locator('pre')).toContainText(`diagoff_${stamp}`);
});

test("an operator demoted to observer while the page is open: the next poll is refused and the tab says 'Failed query check'", async ({ page, request }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('diagdemote'));
  const operator = await registerApiUser(request, newEmail('diagdemoted'));
  const orgId = await organizationWithMember(request, owner, operator, `Diagnostics demote E2E ${stamp}`);
  const types = await apiAs<V7<'device_type', 'id'>>(request, owner, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent("slug eq 'generic-amd64'")}`);
  const fleet = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/application', {
    app_name: `diagdemote_${stamp}`,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  const roleId = async (name: string) =>
    (await apiAs<V7<'application_membership_role', 'id'>>(request, owner, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent(`name eq '${name}'`)}`)).d[0]!.id;
  const membership = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/user_application_membership', {
    user: operator.id,
    is_member_of__application: fleet.id,
    application_membership_role: await roleId('operator'),
  });
  const provisioningKey = await createProvisioningKey(request, owner, fleet.id);
  const simulation = await simulateFleet({ provisioningKey, fleetId: fleet.id, deviceType: 'generic-amd64', count: 1 });
  try {
    const uuid = simulation.devices[0]!.uuid;
    await signIn(page, operator.email);
    await page.goto(`/devices/${uuid}/diagnostics`);
    const checks = page.getByRole('region', { name: 'Health checks' });
    await expect(checks.getByLabel('State: Idle')).toBeVisible();
    await expect(checks).not.toContainText('Failed query check');

    await apiAs(request, owner, 'PATCH', `/v7/user_application_membership(${membership.id})`, { application_membership_role: await roleId('observer') });
    // Health checks poll every 15 s: the next read is refused (403).
    await expect(checks.getByRole('alert')).toContainText('Failed query check', { timeout: 45_000 });
  } finally {
    await simulation.stop();
  }
});
