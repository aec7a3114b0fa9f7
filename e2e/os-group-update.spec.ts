import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { seriousViolations } from './support/axe';
import { watchPageProblems } from './support/csp';
import { arrangeSql } from './support/db';
import { fleetInOrganization, organizationWithFleet, registerOfflineDevice } from './support/fleets';
import { reloadUntil } from './support/settle';
import { createProvisioningKey, simulateFleet, type Simulation } from './support/simulator';
import { newEmail, signIn } from './support/users';

/*
 * Issue 17 item 4 (dashboard): host OS updates reach the server's actions service. From
 * device settings, one simulated device updates its host OS: the row shows the simulated
 * hook's progress, then the device reports the new version. From the fleet's device table,
 * the group host OS and supervisor updates: every selected device's eligibility for the
 * chosen version with the model's reason, the update on the eligible ones only (their
 * progress, then the new `os_version` / the supervisor release set), the ineligible listed as
 * skipped with their reason and unchanged, a device the server refuses in the summary with
 * the server's message without stopping the others; an observer has no batch actions and the
 * server refuses it; axe on the dialog.
 */

const DEVICE_TYPE = 'raspberrypi4-64';

interface DeviceRow {
  id: number;
  uuid: string;
  device_name: string;
  is_online: boolean;
  os_version: string | null;
  supervisor_version: string | null;
  should_be_operated_by__release: { raw_version: string }[];
  should_be_managed_by__release: { raw_version: string }[];
}

async function fleetDevices(request: APIRequestContext, user: ApiUser, fleetId: number): Promise<DeviceRow[]> {
  const res = await apiAs<{ d: DeviceRow[] }>(
    request,
    user,
    'GET',
    `/v7/device?$select=id,uuid,device_name,is_online,os_version,supervisor_version&$expand=should_be_operated_by__release($select=raw_version),should_be_managed_by__release($select=raw_version)&$filter=${encodeURIComponent(`belongs_to__application eq ${fleetId}`)}&$orderby=id asc`,
  );
  return res.d;
}

async function waitOnline(request: APIRequestContext, user: ApiUser, fleetId: number, uuids: string[]) {
  await expect
    .poll(async () => (await fleetDevices(request, user, fleetId)).filter((d) => uuids.includes(d.uuid) && d.is_online).length, { timeout: 60_000 })
    .toBe(uuids.length);
}

/** The fleet's device table with every device on the page selected. */
async function selectAll(page: Page, fleetId: number, count: number) {
  await page.goto(`/fleets/${fleetId}/devices`);
  const rows = page.getByRole('table', { name: 'Devices' }).locator('tbody tr');
  await expect(rows).toHaveCount(count, { timeout: 30_000 });
  await page.getByRole('checkbox', { name: 'Select all devices on this page' }).check();
  await expect(page.getByText(`${count} selected`)).toBeVisible();
}

/** axe over the open dialog, in a context that lets its script in (the dashboard's CSP rightly forbids inline scripts). */
async function axeOnGroupDialog(browser: Browser, email: string, fleetId: number, count: number): Promise<string[]> {
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    await signIn(page, email);
    await selectAll(page, fleetId, count);
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Update host OS' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update the host OS of the selected devices' });
    await expect(dialog.getByRole('table', { name: 'Selected devices' })).toBeVisible({ timeout: 30_000 });
    return await seriousViolations(page, ['[role="dialog"]']);
  } finally {
    await context.close();
  }
}

test('the single-device OS update from device settings reaches the server: progress, then the new OS version', async ({ page, request }) => {
  test.setTimeout(240_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('osone'));
  const { fleetId } = await organizationWithFleet(request, admin, `OS one E2E ${stamp}`, `osone_${stamp}`, DEVICE_TYPE);
  const provisioningKey = await createProvisioningKey(request, admin, fleetId);
  let simulation: Simulation | undefined;
  try {
    simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: DEVICE_TYPE, count: 1, seed: 311, osUpdateMs: [20_000, 25_000] });
    const uuid = simulation.devices[0]!.uuid;
    await waitOnline(request, admin, fleetId, [uuid]);
    const device = (await fleetDevices(request, admin, fleetId))[0]!;
    expect(device.os_version).toBe('balenaOS 6.0.10');

    await signIn(page, admin.email);
    await page.goto(`/devices/${uuid}/settings`);
    const osRow = page.getByRole('region', { name: 'Host OS update' });
    await expect(osRow).toContainText('Update available', { timeout: 30_000 });
    await osRow.getByRole('button', { name: 'Update OS' }).click();
    const dialog = page.getByRole('dialog', { name: `Update the host OS of ${device.device_name}` });
    const target = (await dialog.getByRole('radio').first().getAttribute('value'))!;
    expect(target).toMatch(/^6\.1\.0\+rev0\.(prod|dev)$/);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText(`Update the host OS of ${device.device_name} to ${target}?`);
    await dialog.getByRole('button', { name: 'Start the update' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `OS update to ${target} started` })).toBeVisible({ timeout: 30_000 });
    await expect(dialog).toBeHidden();
    // The server set the host OS release; the row shows the simulated hook's progress.
    expect((await fleetDevices(request, admin, fleetId))[0]!.should_be_operated_by__release[0]?.raw_version).toBe(target);
    await expect(osRow.getByRole('status')).toContainText(/Updating host OS: .+ \(\d+ %\)/, { timeout: 60_000 });
    // After the simulated reboot: the new version, and nothing newer to update to.
    await expect.poll(async () => (await fleetDevices(request, admin, fleetId))[0]!.os_version, { timeout: 120_000 }).toBe('balenaOS 6.1.0+rev0');
    await reloadUntil(page, page.getByRole('region', { name: 'Host OS update' }), async (row) => {
      await expect(row).toContainText('Up to date', { timeout: 10_000 });
    }, 90_000);
    await expect(page.getByRole('region', { name: 'Host OS update' }).getByRole('button', { name: 'Update OS' })).toBeDisabled();
  } finally {
    await simulation?.stop();
  }
  expect(problems.errors).toEqual([]);
});

test('group host OS and supervisor updates from the fleet table: eligible devices update, the others are skipped or refused with their reason; observers cannot', async ({ page, request, browser }) => {
  test.setTimeout(360_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('osgroup'));
  const observer = await registerApiUser(request, newEmail('osgroupobs'));
  const orgId = await organizationWithMember(request, admin, observer, `OS group E2E ${stamp}`);
  const fleetId = (await fleetInOrganization(request, admin, orgId, `osgroup_${stamp}`, DEVICE_TYPE)).fleetId;
  const observerRole = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: fleetId, application_membership_role: observerRole.d[0]!.id });
  const provisioningKey = await createProvisioningKey(request, admin, fleetId);
  // Ineligible for the OS update: offline (one on the default line, one on ESR).
  const offline = await registerOfflineDevice(request, provisioningKey, fleetId, DEVICE_TYPE, { os: 'balenaOS 6.0.10', supervisor: '14.0.0' });
  const esr = await registerOfflineDevice(request, provisioningKey, fleetId, DEVICE_TYPE, { os: 'balenaOS 2024.10.1', supervisor: '14.0.0' });

  let simulation: Simulation | undefined;
  try {
    simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: DEVICE_TYPE, count: 3, seed: 312, osUpdateMs: [20_000, 25_000] });
    const simulated = simulation.devices.map((d) => d.uuid);
    await waitOnline(request, admin, fleetId, simulated);
    const before = await fleetDevices(request, admin, fleetId);
    const nameOf = (uuid: string) => before.find((d) => d.uuid === uuid)!.device_name;
    expect(before.filter((d) => simulated.includes(d.uuid)).map((d) => d.os_version)).toEqual(['balenaOS 6.0.10', 'balenaOS 6.0.10', 'balenaOS 6.0.10']);

    // axe on the group dialog (its own context: axe is an inline script).
    expect(await axeOnGroupDialog(browser, admin.email, fleetId, 5)).toEqual([]);

    await signIn(page, admin.email);
    await selectAll(page, fleetId, 5);
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Update host OS' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update the host OS of the selected devices' });
    // The versions some selected device may take (the ESR device could move to 2025.7.0), without variant.
    await expect(dialog.getByRole('radio')).toHaveCount(2, { timeout: 30_000 });
    await expect(dialog.getByRole('radio', { name: '2025.7.0+rev0' })).toBeChecked();
    await dialog.getByRole('radio', { name: '6.1.0+rev0' }).check();
    const eligibility = dialog.getByRole('table', { name: 'Selected devices' });
    const rowOf = (table: typeof eligibility, uuid: string) => table.getByRole('row').filter({ hasText: nameOf(uuid) });
    for (const uuid of simulated) await expect(rowOf(eligibility, uuid)).toContainText('Will update');
    await expect(rowOf(eligibility, offline.uuid)).toContainText('Offline — device must be online');
    await expect(rowOf(eligibility, esr.uuid)).toContainText('Offline — device must be online');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText('Update the host OS of 3 of the 5 selected devices to 6.1.0+rev0?');
    await dialog.getByRole('button', { name: 'Start the update' }).click();

    const progress = page.getByRole('dialog', { name: 'Host OS update to 6.1.0+rev0' });
    await expect(progress.getByRole('status')).toHaveText('3 started, 2 skipped, 0 refused by the server.', { timeout: 60_000 });
    const results = progress.getByRole('table', { name: 'Selected devices' });
    await expect(rowOf(results, offline.uuid)).toContainText('Skipped: Offline — device must be online');
    await expect(rowOf(results, esr.uuid)).toContainText('Skipped: Offline — device must be online');
    // Progress reported by the simulated hook, then the new version, in the dialog itself.
    await expect(results).toContainText(/Updating host OS: .+ \(\d+ %\)/, { timeout: 60_000 });
    for (const uuid of simulated) await expect(rowOf(results, uuid)).toContainText('balenaOS 6.1.0+rev0', { timeout: 150_000 });
    const after = await fleetDevices(request, admin, fleetId);
    for (const d of after.filter((x) => simulated.includes(x.uuid))) {
      expect(d.os_version).toBe('balenaOS 6.1.0+rev0');
      expect(d.should_be_operated_by__release[0]?.raw_version).toMatch(/^6\.1\.0\+rev0\.(prod|dev)$/);
    }
    for (const d of after.filter((x) => x.uuid === offline.uuid || x.uuid === esr.uuid)) {
      expect(d.should_be_operated_by__release).toEqual([]);
      expect(d.os_version).toBe(d.uuid === esr.uuid ? 'balenaOS 2024.10.1' : 'balenaOS 6.0.10');
    }
    await progress.getByRole('button', { name: 'Close' }).click();
    await expect(progress).toBeHidden();

    // Group supervisor update: 17.0.2 (newest, preselected); the ESR device is skipped with
    // the spec's reason; an offline device may take it (the release is set for its next poll)
    // — unless, as here, it reports 17.0.2 after the dialog read it: the server refuses it.
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Update supervisor' }).click();
    const supDialog = page.getByRole('dialog', { name: 'Update the supervisor of the selected devices' });
    await expect(supDialog.getByRole('radio', { name: '17.0.2' })).toBeChecked({ timeout: 30_000 });
    await expect(supDialog.getByRole('radio')).toHaveCount(3);
    const supEligibility = supDialog.getByRole('table', { name: 'Selected devices' });
    await expect(rowOf(supEligibility, esr.uuid)).toContainText('Cannot update ESR supervisor');
    await expect(rowOf(supEligibility, offline.uuid)).toContainText('Will update');
    for (const uuid of simulated) await expect(rowOf(supEligibility, uuid)).toContainText('Will update');
    await supDialog.getByRole('button', { name: 'Continue' }).click();
    await expect(supDialog).toContainText('Set supervisor 17.0.2 on 4 of the 5 selected devices?');
    await arrangeSql("UPDATE device SET supervisor_version = '17.0.2' WHERE uuid = $1", [offline.uuid]);
    await supDialog.getByRole('button', { name: 'Confirm update' }).click();
    const supProgress = page.getByRole('dialog', { name: 'Supervisor update to 17.0.2' });
    await expect(supProgress.getByRole('status')).toHaveText('3 started, 1 skipped, 1 refused by the server.', { timeout: 60_000 });
    const supResults = supProgress.getByRole('table', { name: 'Selected devices' });
    await expect(rowOf(supResults, esr.uuid)).toContainText('Skipped: Cannot update ESR supervisor');
    await expect(rowOf(supResults, offline.uuid)).toContainText('Refused: already running this version');
    for (const uuid of simulated) {
      await expect(rowOf(supResults, uuid)).toContainText('Started');
      await expect(rowOf(supResults, uuid)).toContainText('Release set: 17.0.2', { timeout: 30_000 });
    }
    const pinned = await fleetDevices(request, admin, fleetId);
    for (const d of pinned) expect(d.should_be_managed_by__release[0]?.raw_version).toBe(simulated.includes(d.uuid) ? '17.0.2' : undefined);
    await supProgress.getByRole('button', { name: 'Close' }).click();

    // An observer: like every batch action, no selection and no Actions menu (a role that may
    // select but not update sees both items disabled with the permission reason); the server
    // refuses the observer's OS update and supervisor pin anyway.
    const observerContext = await browser.newContext();
    const observerPage = await observerContext.newPage();
    await signIn(observerPage, observer.email);
    await observerPage.goto(`/fleets/${fleetId}/devices`);
    await expect(observerPage.getByRole('table', { name: 'Devices' }).locator('tbody tr')).toHaveCount(5, { timeout: 30_000 });
    await expect(observerPage.getByRole('checkbox', { name: 'Select all devices on this page' })).toHaveCount(0);
    await expect(observerPage.getByRole('button', { name: 'Actions' })).toHaveCount(0);
    const byObserver = await request.post(`/actions/v2/${simulated[0]}/resinhup`, {
      headers: { Authorization: `Bearer ${observer.token}` },
      data: { parameters: { target_version: '6.1.0+rev0' } },
    });
    expect(byObserver.status()).toBe(403);
    expect(await byObserver.text()).toContain('Cannot start the update process: you are not allowed to update this device');
    await observerContext.close();
  } finally {
    await simulation?.stop();
  }
  expect(problems.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});
