import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { deployRelease, newCommit } from './support/releases';
import { newEmail, signIn } from './support/users';

/*
 * Issue 5 device settings journey (spec 2 §2 device Settings page, §4 availability, §5 move and
 * destructive confirmation, §6 permissions): an organization administrator renames a device,
 * pins it to a release and back, toggles its public URL, grants and revokes support access,
 * moves it to a fleet of a CPU architecture it runs (a fleet they only observe is disabled, one
 * of an architecture it cannot run is not offered) and deletes it by typing its name; an observer sees
 * every control disabled.
 */

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

async function fleetOfType(request: APIRequestContext, user: ApiUser, orgId: number, name: string, deviceType: string): Promise<number> {
  const types = await apiAs<V7<'device_type', 'id'>>(request, user, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent(`slug eq '${deviceType}'`)}`);
  const fleet = await apiAs<{ id: number }>(request, user, 'POST', '/v7/application', {
    app_name: name,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  return fleet.id;
}

async function registerDevice(
  request: APIRequestContext,
  user: ApiUser,
  fleetId: number,
  deviceType: string,
  osVariant: 'prod' | 'dev' = 'prod',
): Promise<{ id: number; uuid: string; api_key: string }> {
  const keyRes = await request.post('/api-key/v2/', {
    headers: { Authorization: `Bearer ${user.token}` },
    data: { actorType: 'application', actorTypeId: fleetId, roles: ['provisioning-api-key'], name: 'e2e settings' },
  });
  expect(keyRes.status(), await keyRes.text()).toBeLessThan(300);
  const provisioningKey = (await keyRes.json()) as string;
  const res = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid: hex(32), device_type: deviceType, api_key: hex(32), supervisor_version: '16.1.0', os_version: 'balenaOS 5.3.0', os_variant: osVariant },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; uuid: string; api_key: string };
}

async function deviceRow(request: APIRequestContext, user: ApiUser, id: number) {
  const res = await apiAs<{ d: Record<string, unknown>[] }>(
    request,
    user,
    'GET',
    `/v7/device(${id})?$select=device_name,is_web_accessible,is_pinned_on__release,is_accessible_by_support_until__date,belongs_to__application`,
  );
  return res.d[0];
}

test('the device settings page renames, pins, toggles the public URL and support access, moves and deletes; an observer sees it disabled', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('dsadmin'));
  const observer = await registerApiUser(request, newEmail('dsobserver'));
  const orgId = await organizationWithMember(request, admin, observer, `Device settings E2E ${stamp}`);
  const home = await fleetOfType(request, admin, orgId, `ds_home_${stamp}`, 'raspberrypi4-64');
  const target = await fleetOfType(request, admin, orgId, `ds_target_${stamp}`, 'generic-aarch64');
  await fleetOfType(request, admin, orgId, `ds_intel_${stamp}`, 'intel-nuc');
  // An armv7hf fleet: balena lets an aarch64 device run it (issue 12), so it is offered too.
  await fleetOfType(request, admin, orgId, `ds_pi3_${stamp}`, 'raspberrypi3');
  const observerRole = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: home, application_membership_role: observerRole.d[0]!.id });
  // A fleet of the same architecture in someone else's organization, which the admin only observes.
  const other = await registerApiUser(request, newEmail('dsother'));
  const otherOrg = await organizationWithMember(request, other, admin, `Device settings other ${stamp}`);
  const observed = await fleetOfType(request, other, otherOrg, `ds_observed_${stamp}`, 'raspberrypi4-64');
  await apiAs(request, other, 'POST', '/v7/user_application_membership', { user: admin.id, is_member_of__application: observed, application_membership_role: observerRole.d[0]!.id });

  const commit = newCommit();
  await deployRelease(request, admin, home, { commit, semver: '1.2.3', composition: { services: { main: {} } }, services: [{ name: 'main' }] });
  const device = await registerDevice(request, admin, home, 'raspberrypi4-64');

  // The observer: the page shows, every control is disabled with the denial tooltip.
  const observerContext = await browser.newContext();
  const observerPage = await observerContext.newPage();
  await signIn(observerPage, observer.email);
  await observerPage.goto(`/devices/${device.uuid}/settings`);
  await expect(observerPage.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  const observerRename = observerPage.getByRole('region', { name: 'Device name' }).getByRole('button', { name: 'Rename' });
  await expect(observerRename).toBeDisabled();
  await expect(observerPage.getByRole('region', { name: 'Delete device' }).getByRole('button', { name: 'Delete device' })).toBeDisabled();
  await expect(observerPage.getByRole('region', { name: 'Support access' }).getByRole('button', { name: 'Grant support access' })).toBeDisabled();
  await expect(observerPage.getByRole('switch', { name: 'Public device URL' })).toBeDisabled();
  await expect(observerPage.getByRole('region', { name: 'Move to another fleet' }).getByRole('button', { name: 'Move device' })).toBeDisabled();
  await observerRename.locator('..').hover();
  await expect(observerPage.getByRole('tooltip')).toHaveText("You don't have the required permission for this action");
  await observerContext.close();

  await signIn(page, admin.email);
  await page.goto(`/devices/${device.uuid}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${device.uuid}/settings$`));

  // Rename with the shared name dialog; the header follows.
  await page.getByRole('region', { name: 'Device name' }).getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename device' });
  await rename.getByLabel('Device name').fill(`mast-${stamp}`);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `mast-${stamp}` })).toBeVisible();
  expect((await deviceRow(request, admin, device.id))?.device_name).toBe(`mast-${stamp}`);

  // Pin to the release, then track the fleet again.
  const release = page.getByRole('region', { name: 'Target release' });
  await release.getByLabel('Target release').selectOption({ label: `1.2.3 (${commit.slice(0, 7)})` });
  await release.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'successfully pinned to release' })).toBeVisible();
  await expect.poll(async () => (await deviceRow(request, admin, device.id))?.is_pinned_on__release).not.toBeNull();
  await release.getByLabel('Target release').selectOption({ label: "Track the fleet's release" });
  await release.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'successfully track default' })).toBeVisible();
  await expect.poll(async () => (await deviceRow(request, admin, device.id))?.is_pinned_on__release).toBeNull();

  // Public URL on and off.
  const publicUrl = page.getByRole('switch', { name: 'Public device URL' });
  await publicUrl.click();
  await expect(publicUrl).toBeChecked();
  await expect.poll(async () => (await deviceRow(request, admin, device.id))?.is_web_accessible).toBe(true);
  await publicUrl.click();
  await expect(publicUrl).not.toBeChecked();
  await expect.poll(async () => (await deviceRow(request, admin, device.id))?.is_web_accessible).toBe(false);

  // Support access: the date defaults to 5 days ahead; grant, then revoke.
  const support = page.getByRole('region', { name: 'Support access' });
  await support.getByRole('button', { name: 'Grant support access' }).click();
  const grant = page.getByRole('dialog', { name: 'Grant support access' });
  const until = await grant.getByLabel('Access until').inputValue();
  const days = (new Date(until).getTime() - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(4.9);
  expect(days).toBeLessThan(5.1);
  await grant.getByRole('button', { name: 'Grant support access' }).click();
  await expect(support.getByRole('button', { name: 'Revoke support access' })).toBeVisible();
  const granted = (await deviceRow(request, admin, device.id))?.is_accessible_by_support_until__date as string;
  expect(Date.parse(granted)).toBeGreaterThan(Date.now() + 4 * 86_400_000);
  await support.getByRole('button', { name: 'Revoke support access' }).click();
  await expect(support.getByRole('button', { name: 'Grant support access' })).toBeVisible();
  await expect.poll(async () => {
    const value = (await deviceRow(request, admin, device.id))?.is_accessible_by_support_until__date as string | null;
    return value === null || Date.parse(value) <= Date.now();
  }).toBe(true);

  // Local mode needs a dev OS: this prod device says why.
  const localMode = page.getByRole('region', { name: 'Local mode' });
  await expect(localMode.getByRole('switch', { name: 'Local mode' })).toBeDisabled();
  await expect(localMode).toContainText('Local mode needs a development OS variant and supervisor 4 or newer');

  // A connected dev-OS device turns local mode on (RESIN_SUPERVISOR_LOCAL_MODE=1); its release
  // pin is then 'not available in local mode'; and off again.
  const devDevice = await registerDevice(request, admin, home, 'raspberrypi4-64', 'dev');
  const poll = await request.get(`/device/v3/${devDevice.uuid}/state`, { headers: { Authorization: `Bearer ${devDevice.api_key}` } });
  expect(poll.status(), await poll.text()).toBe(200);
  const lastSeen = async () =>
    (await apiAs<V7<'device', 'last_connectivity_event'>>(request, admin, 'GET', `/v7/device(${devDevice.id})?$select=last_connectivity_event`)).d[0]
      ?.last_connectivity_event ?? null;
  await expect.poll(lastSeen, { timeout: 20_000 }).not.toBeNull();
  const localModeValue = async () =>
    (
      await apiAs<V7<'device_config_variable', 'value'>>(
        request,
        admin,
        'GET',
        `/v7/device_config_variable?$select=value&$filter=${encodeURIComponent(`device eq ${devDevice.id} and name eq 'RESIN_SUPERVISOR_LOCAL_MODE'`)}`,
      )
    ).d[0]?.value;
  await page.goto(`/devices/${devDevice.uuid}/settings`);
  const devLocalMode = page.getByRole('region', { name: 'Local mode' }).getByRole('switch', { name: 'Local mode' });
  await devLocalMode.click();
  await expect(devLocalMode).toBeChecked();
  expect(await localModeValue()).toBe('1');
  await expect(page.getByRole('region', { name: 'Target release' })).toContainText('not available in local mode');
  await expect(page.getByRole('region', { name: 'Target release' }).getByLabel('Target release')).toBeDisabled();
  await devLocalMode.click();
  await expect(devLocalMode).not.toBeChecked();
  expect(await localModeValue()).toBe('0');
  await page.goto(`/devices/${device.uuid}/settings`);

  // Move: fleets of an architecture the device runs (its own, and armv7hf for this aarch64
  // device); one of another family is not offered; the one the admin only observes is disabled.
  const move = page.getByRole('region', { name: 'Move to another fleet' });
  await expect(move.getByRole('radio', { name: `ds_target_${stamp}` })).toBeEnabled();
  await expect(move.getByRole('radio', { name: `ds_observed_${stamp}` })).toBeDisabled();
  await expect(move.getByRole('radio', { name: `ds_intel_${stamp}` })).toHaveCount(0);
  await expect(move.getByRole('radio', { name: `ds_pi3_${stamp}` })).toBeEnabled();
  await move.getByRole('radio', { name: `ds_target_${stamp}` }).check();
  await move.getByRole('button', { name: 'Move device' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${target}$`));
  expect((await deviceRow(request, admin, device.id))?.belongs_to__application).toEqual({ __id: target });

  // Delete by typing the name; back to the fleet.
  await page.goto(`/devices/${device.uuid}/settings`);
  await page.getByRole('region', { name: 'Delete device' }).getByRole('button', { name: 'Delete device' }).click();
  const remove = page.getByRole('dialog', { name: `Delete mast-${stamp}` });
  await expect(remove.getByRole('button', { name: 'Delete device' })).toBeDisabled();
  await remove.getByLabel(`Type mast-${stamp} to confirm`).fill(`mast-${stamp}`);
  await remove.getByRole('button', { name: 'Delete device' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${target}$`));
  const gone = await apiAs<{ d: unknown[] }>(request, admin, 'GET', `/v7/device?$select=id&$filter=id eq ${device.id}`);
  expect(gone.d).toEqual([]);

  // balena-sdk's configVar.set is an upsert: POST, then PATCH after the 409 of an existing
  // variable (disabling local mode); the browser logs that 409, nothing else may appear.
  expect(problems.errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
});
