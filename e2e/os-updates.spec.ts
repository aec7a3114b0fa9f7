import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { arrangeSql } from './support/db';
import { fleetInOrganization, registerOfflineDevice } from './support/fleets';
import { reloadUntil } from './support/settle';
import { createProvisioningKey, simulateFleet, type Simulation } from './support/simulator';
import { newEmail, signIn } from './support/users';

/*
 * Issue 17 (dashboard): the device pages read the host OS and supervisor catalogue through
 * balena-sdk. A simulated device (balenaOS 6.0.10, supervisor 14.0.0) shows the OS line badge
 * and the OS update classification of spec 2 §4 from the catalogue, and the supervisor
 * releases newer than its own; the single-device supervisor dialog pins a newer release
 * (`should_be_managed_by__release`, read back through the API). Registered devices reporting
 * other versions show an end-of-life and an ESR badge, the server's refusal in the dialog, and
 * a supervisor update blocked with the spec's reason; an observer sees the button disabled.
 */

const DEVICE_TYPE = 'raspberrypi4-64';

interface DeviceOsRow {
  id: number;
  uuid: string;
  device_name: string;
  is_online: boolean;
  os_version: string | null;
  os_variant: string | null;
  should_be_managed_by__release: { raw_version: string }[];
}

async function deviceOs(request: APIRequestContext, user: ApiUser, filter: string): Promise<DeviceOsRow[]> {
  const res = await apiAs<{ d: DeviceOsRow[] }>(
    request,
    user,
    'GET',
    `/v7/device?$select=id,uuid,device_name,is_online,os_version,os_variant&$expand=should_be_managed_by__release($select=raw_version)&$filter=${encodeURIComponent(filter)}`,
  );
  return res.d;
}

test('a simulated device shows its OS badge, classification and newer supervisors from the catalogue; the supervisor dialog pins one; refusals, blocks and observers', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('osadmin'));
  const observer = await registerApiUser(request, newEmail('osobserver'));
  const orgId = await organizationWithMember(request, admin, observer, `OS updates E2E ${stamp}`);
  const fleetId = (await fleetInOrganization(request, admin, orgId, `os_${stamp}`, DEVICE_TYPE)).fleetId;
  const observerRole = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: fleetId, application_membership_role: observerRole.d[0]!.id });
  const provisioningKey = await createProvisioningKey(request, admin, fleetId);
  const endOfLife = await registerOfflineDevice(request, provisioningKey, fleetId, DEVICE_TYPE, { os: 'balenaOS 2.113.18', supervisor: '16.1.0' });
  const esr = await registerOfflineDevice(request, provisioningKey, fleetId, DEVICE_TYPE, { os: 'balenaOS 2024.10.1', supervisor: '14.0.0' });

  let simulation: Simulation | undefined;
  try {
    simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: DEVICE_TYPE, count: 1, seed: 17 });
    const uuid = simulation.devices[0]!.uuid;
    await expect
      .poll(async () => (await deviceOs(request, admin, `uuid eq '${uuid}'`))[0]?.is_online ?? false, { timeout: 40_000 })
      .toBe(true);
    const device = (await deviceOs(request, admin, `uuid eq '${uuid}'`))[0]!;
    expect(device.os_version).toBe('balenaOS 6.0.10');
    const variant = device.os_variant!;

    // Summary: 6.0.10 is the catalogue's current line; 6.1.0 of its variant is the update
    // (2025.7.0 is based on 6.0.10: no ESR switch); the three newer supervisor releases.
    await signIn(page, admin.email);
    await page.goto(`/devices/${uuid}`);
    const details = page.getByRole('region', { name: 'Device details' });
    await expect(details.getByText('current', { exact: true })).toBeVisible({ timeout: 20_000 });
    const overview = details.getByRole('region', { name: 'Host OS and supervisor updates' });
    await expect(overview).toContainText('Update available', { timeout: 20_000 });
    await expect(overview).toContainText(`Recommended: 6.1.0+rev0.${variant}`);
    await expect(overview).toContainText(/Available OS versions\s*6\.1\.0\+rev0\./);
    await expect(overview).not.toContainText('2025.7.0');
    await expect(overview).toContainText('17.0.2, 16.4.6, 14.11.14');

    // Settings: the same classification; the supervisor dialog pins 16.4.6 after a confirmation.
    await page.goto(`/devices/${uuid}/settings`);
    const osRow = page.getByRole('region', { name: 'Host OS update' });
    await expect(osRow).toContainText('Update available', { timeout: 20_000 });
    await expect(osRow).toContainText(`6.1.0+rev0.${variant}`);
    // Online with a target: the OS update dialog opens on the versions the classification allows
    // (starting it: os-group-update.spec.ts).
    await osRow.getByRole('button', { name: 'Update OS' }).click();
    const osDialog = page.getByRole('dialog', { name: `Update the host OS of ${device.device_name}` });
    await expect(osDialog.getByRole('radio', { name: `6.1.0+rev0.${variant}` })).toBeChecked();
    await expect(osDialog.getByRole('radio')).toHaveCount(1);
    await osDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(osDialog).toBeHidden();
    const supervisorRow = page.getByRole('region', { name: 'Supervisor update' });
    await expect(supervisorRow).toContainText('17.0.2, 16.4.6, 14.11.14');
    await supervisorRow.getByRole('button', { name: 'Update supervisor' }).click();
    const dialog = page.getByRole('dialog', { name: `Update the supervisor of ${device.device_name}` });
    await expect(dialog).toContainText('Running supervisor 14.0.0.');
    await expect(dialog.getByRole('radio', { name: '17.0.2' })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: '14.0.0' })).toHaveCount(0);
    await dialog.getByRole('radio', { name: '16.4.6' }).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText(`Update the supervisor of ${device.device_name} to 16.4.6?`);
    await dialog.getByRole('button', { name: 'Confirm update' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Supervisor update to 16.4.6 requested' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await deviceOs(request, admin, `uuid eq '${uuid}'`))[0]?.should_be_managed_by__release[0]?.raw_version)
      .toBe('16.4.6');
    await expect(supervisorRow).toContainText('Supervisor release set: 16.4.6', { timeout: 20_000 });

    // The observer sees the classification, and the button disabled with the permission tooltip.
    const observerContext = await browser.newContext();
    const observerPage = await observerContext.newPage();
    await signIn(observerPage, observer.email);
    await observerPage.goto(`/devices/${uuid}/settings`);
    const observerButton = observerPage.getByRole('region', { name: 'Supervisor update' }).getByRole('button', { name: 'Update supervisor' });
    await expect(observerButton).toBeDisabled({ timeout: 20_000 });
    await expect(observerPage.getByRole('region', { name: 'Host OS update' }).getByRole('button', { name: 'Update OS' })).toBeDisabled();
    await expect(observerPage.getByRole('region', { name: 'Host OS update' })).toContainText('Update available');
    await observerButton.locator('..').hover();
    await expect(observerPage.getByRole('tooltip')).toHaveText("You don't have the required permission for this action");
    await observerContext.close();
  } finally {
    await simulation?.stop();
  }

  // An end-of-life release: its badge; offline, so the classification says so.
  await page.goto(`/devices/${endOfLife.uuid}`);
  const eolDetails = page.getByRole('region', { name: 'Device details' });
  await expect(eolDetails.getByText('end of life', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(eolDetails.getByRole('region', { name: 'Host OS and supervisor updates' })).toContainText('Offline — device must be online');

  // The server decides: the device reports 17.0.2 while the dialog still offers 16.4.6; the
  // refusal shows in the dialog with the server's message.
  await page.goto(`/devices/${endOfLife.uuid}/settings`);
  const eolSupervisor = page.getByRole('region', { name: 'Supervisor update' });
  // Offline: no OS update.
  await expect(page.getByRole('region', { name: 'Host OS update' }).getByRole('button', { name: 'Update OS' })).toBeDisabled({ timeout: 20_000 });
  await eolSupervisor.getByRole('button', { name: 'Update supervisor' }).click();
  const eolName = (await deviceOs(request, admin, `id eq ${endOfLife.id}`))[0]!.device_name;
  const eolDialog = page.getByRole('dialog', { name: `Update the supervisor of ${eolName}` });
  await eolDialog.getByRole('radio', { name: '16.4.6' }).check();
  await eolDialog.getByRole('button', { name: 'Continue' }).click();
  await arrangeSql("UPDATE device SET supervisor_version = '17.0.2' WHERE uuid = $1", [endOfLife.uuid]);
  await eolDialog.getByRole('button', { name: 'Confirm update' }).click();
  await expect(eolDialog.getByRole('alert')).toContainText('The supervisor can only be updated to a newer version');
  expect((await deviceOs(request, admin, `id eq ${endOfLife.id}`))[0]!.should_be_managed_by__release).toEqual([]);
  await eolDialog.getByRole('button', { name: 'Back' }).click();
  await eolDialog.getByRole('button', { name: 'Cancel' }).click();
  // Once the page reads the new version, nothing is newer: blocked with the spec's message.
  await reloadUntil(page, page.getByRole('region', { name: 'Supervisor update' }), async (row) => {
    await expect(row).toContainText('already running this version', { timeout: 5_000 });
  });
  await expect(page.getByRole('region', { name: 'Supervisor update' }).getByRole('button', { name: 'Update supervisor' })).toBeDisabled();

  // An ESR device: the ESR badge on its sunset line; its supervisor comes with the OS.
  await page.goto(`/devices/${esr.uuid}`);
  const esrDetails = page.getByRole('region', { name: 'Device details' });
  await expect(esrDetails.getByText('ESR', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(esrDetails.getByText('sunset', { exact: true })).toBeVisible();
  await page.goto(`/devices/${esr.uuid}/settings`);
  const esrSupervisor = page.getByRole('region', { name: 'Supervisor update' });
  await expect(esrSupervisor).toContainText('Cannot update ESR supervisor', { timeout: 20_000 });
  await expect(esrSupervisor.getByRole('button', { name: 'Update supervisor' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Host OS update' })).toContainText('2025.7.0+rev0.prod');

  expect(problems.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});
