import { VARIABLE_MESSAGES } from '@flotilla/model';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { getSdk } from 'balena-sdk';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { deployRelease, newCommit } from './support/releases';
import { E2E_API } from './support/simulator';
import { newEmail, signIn } from './support/users';

/*
 * Issue 16 configuration pages (spec 2 §2 fleet and device config pages, §4 staging, §5, §9):
 * an administrator toggles a two-value variable, picks a value of a three-value one in the
 * edit dialog, adds a custom configuration variable, applies all (checked through balena-sdk),
 * reverts all after a confirmation; the device page shows the fleet value beside the device's
 * override; the overrides dialog lists the overriding device; the effective-value panel names
 * the level of each value and what it overrides; the history dialog shows old → new with the
 * user's name; an observer reads everything and changes nothing.
 */

const DEVICE_TYPE = 'raspberrypi4-64';
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

async function fleetOfType(request: APIRequestContext, user: ApiUser, orgId: number, name: string): Promise<number> {
  const types = await apiAs<V7<'device_type', 'id'>>(request, user, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent(`slug eq '${DEVICE_TYPE}'`)}`);
  const fleet = await apiAs<{ id: number }>(request, user, 'POST', '/v7/application', {
    app_name: name,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  return fleet.id;
}

async function registerDevice(request: APIRequestContext, user: ApiUser, fleetId: number): Promise<{ id: number; uuid: string }> {
  const keyRes = await request.post('/api-key/v2/', {
    headers: { Authorization: `Bearer ${user.token}` },
    data: { actorType: 'application', actorTypeId: fleetId, roles: ['provisioning-api-key'], name: 'e2e config' },
  });
  expect(keyRes.status(), await keyRes.text()).toBeLessThan(300);
  const provisioningKey = (await keyRes.json()) as string;
  const res = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid: hex(32), device_type: DEVICE_TYPE, api_key: hex(32), supervisor_version: '16.1.0', os_version: 'balenaOS 5.3.0', os_variant: 'prod' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; uuid: string };
}

/** balena-sdk in Node, signed in with the user's session token: what a script would read. */
async function sdkAs(user: ApiUser) {
  const sdk = getSdk({ apiUrl: E2E_API, isBrowser: false, dataDirectory: false });
  await sdk.auth.loginWithToken(user.token);
  return sdk;
}

async function fleetConfig(user: ApiUser, fleetId: number): Promise<Record<string, string>> {
  const sdk = await sdkAs(user);
  const vars = await sdk.models.application.configVar.getAllByApplication(fleetId);
  return Object.fromEntries(vars.map((v) => [v.name, v.value]));
}

async function deviceConfig(user: ApiUser, uuid: string): Promise<Record<string, string>> {
  const sdk = await sdkAs(user);
  const vars = await sdk.models.device.configVar.getAllByDevice(uuid);
  return Object.fromEntries(vars.map((v) => [v.name, v.value]));
}

/** A row of the named table (Configuration, Custom configuration) by the variable's name. */
const rowOf = (page: Page, table: string, name: string) => page.getByRole('table', { name: table, exact: true }).getByRole('row').filter({ hasText: name });

test('the configuration pages stage, apply and revert; device overrides, the effective-value panel and the history', async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('cfgadmin'));
  const observer = await registerApiUser(request, newEmail('cfgobserver'));
  const orgId = await organizationWithMember(request, admin, observer, `Config E2E ${stamp}`);
  const fleetId = await fleetOfType(request, admin, orgId, `cfg_${stamp}`);
  const observerRole = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: fleetId, application_membership_role: observerRole.d[0]!.id });
  await deployRelease(request, admin, fleetId, {
    commit: newCommit(),
    composition: { services: { main: { environment: { GREETING: 'from the image' } } } },
    services: [{ name: 'main' }],
  });
  const device = await registerDevice(request, admin, fleetId);

  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}/config`);
  await expect(page.getByRole('tab', { name: 'Configuration', selected: true })).toBeVisible();

  // The schema form: description, default marked, human-readable format, reboot warning.
  const poll = rowOf(page, 'Configuration', 'BALENA_SUPERVISOR_POLL_INTERVAL');
  await expect(poll).toContainText('Define the balena API polling interval in milliseconds');
  await expect(poll).toContainText('Default');
  await expect(poll).toContainText('10 min');
  await expect(rowOf(page, 'Configuration', 'BALENA_HOST_CONFIG_gpu_mem')).toContainText('16 MB');
  await expect(rowOf(page, 'Configuration', 'BALENA_HOST_CONFIG_gpu_mem')).toContainText('Changing this reboots the device');

  // A two-value variable toggles in place: staged as added, counted in the bar.
  const splash = page.getByRole('switch', { name: 'BALENA_HOST_CONFIG_disable_splash' });
  await expect(splash).toBeChecked();
  await splash.click();
  await expect(splash).not.toBeChecked();
  await expect(rowOf(page, 'Configuration', 'BALENA_HOST_CONFIG_disable_splash')).toContainText('Added');
  const bar = page.getByRole('region', { name: 'Pending changes' });
  await expect(bar).toContainText('1 pending change');

  // A three-value one opens the edit dialog with a select.
  await page.getByRole('button', { name: 'Edit BALENA_HOST_FIREWALL_MODE' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit BALENA_HOST_FIREWALL_MODE' });
  await edit.getByLabel('Value').selectOption('auto');
  await edit.getByRole('button', { name: 'Stage change' }).click();
  await expect(edit).toBeHidden();
  await expect(rowOf(page, 'Configuration', 'BALENA_HOST_FIREWALL_MODE')).toContainText('auto');

  // Custom configuration: the model's name rules, then a valid one.
  await expect(page.getByText("No custom configuration yet. Use 'Add custom configuration' to set one.")).toBeVisible();
  await page.getByRole('button', { name: 'Add custom configuration' }).click();
  const add = page.getByRole('dialog', { name: 'Add custom configuration' });
  await add.getByLabel('Name').fill('MY_SETTING');
  await add.getByLabel('Value').fill('hello');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add.getByText(VARIABLE_MESSAGES.configOutsideNamespace)).toBeVisible();
  await add.getByLabel('Name').fill(`BALENA_E2E_${stamp.toUpperCase()}`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await expect(rowOf(page, 'Custom configuration', `BALENA_E2E_${stamp.toUpperCase()}`)).toContainText('Added');
  await expect(bar).toContainText('3 pending changes');

  // Leaving warns; dismissing stays.
  page.once('dialog', (d) => {
    expect(d.message()).toBe('changes not saved, click OK to proceed');
    void d.dismiss();
  });
  await page.getByRole('tab', { name: 'Releases' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/config$`));

  // Apply all: three writes, read back through balena-sdk.
  await bar.getByRole('button', { name: 'Apply all changes' }).click();
  await expect(page.getByText('All changes applied')).toBeVisible();
  await expect(bar).toBeHidden();
  expect(await fleetConfig(admin, fleetId)).toEqual({
    BALENA_HOST_CONFIG_disable_splash: '0',
    BALENA_HOST_FIREWALL_MODE: 'auto',
    [`BALENA_E2E_${stamp.toUpperCase()}`]: 'hello',
  });
  await expect(rowOf(page, 'Configuration', 'BALENA_HOST_CONFIG_disable_splash')).not.toContainText('Added');

  // A duplicate custom name is refused.
  await page.getByRole('button', { name: 'Add custom configuration' }).click();
  await add.getByLabel('Name').fill(`BALENA_E2E_${stamp.toUpperCase()}`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add.getByText('A configuration variable with this name already exists.')).toBeVisible();
  await add.getByRole('button', { name: 'Cancel' }).click();

  // Revert all (confirmed): the staged toggle and edit go away, nothing is written.
  await page.getByRole('switch', { name: 'BALENA_SUPERVISOR_DELTA' }).click();
  await page.getByRole('button', { name: 'Edit BALENA_HOST_FIREWALL_MODE' }).click();
  await edit.getByLabel('Value').selectOption('on');
  await edit.getByRole('button', { name: 'Stage change' }).click();
  await expect(rowOf(page, 'Configuration', 'BALENA_HOST_FIREWALL_MODE')).toContainText('Changed');
  await bar.getByRole('button', { name: 'Revert all changes' }).click();
  const revert = page.getByRole('dialog', { name: 'Revert all changes?' });
  await revert.getByRole('button', { name: 'Revert all' }).click();
  await expect(bar).toBeHidden();
  await expect(page.getByRole('switch', { name: 'BALENA_SUPERVISOR_DELTA' })).not.toBeChecked();
  await expect(rowOf(page, 'Configuration', 'BALENA_HOST_FIREWALL_MODE')).not.toContainText('Changed');
  expect((await fleetConfig(admin, fleetId)).BALENA_HOST_FIREWALL_MODE).toBe('auto');

  // Change it for real (its history is read below).
  await page.getByRole('button', { name: 'Edit BALENA_HOST_FIREWALL_MODE' }).click();
  await edit.getByLabel('Value').selectOption('on');
  await edit.getByRole('button', { name: 'Stage change' }).click();
  await bar.getByRole('button', { name: 'Apply all changes' }).click();
  await expect(bar).toBeHidden();

  // The device page: the fleet value beside the device's own override.
  await apiAs(request, admin, 'POST', '/v7/application_config_variable', { application: fleetId, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '600000' });
  await apiAs(request, admin, 'POST', '/v7/application_environment_variable', { application: fleetId, name: 'GREETING', value: 'from the fleet' });
  await apiAs(request, admin, 'POST', '/v7/device_environment_variable', { device: device.id, name: 'GREETING', value: 'from the device' });
  await page.goto(`/devices/${device.uuid}/config`);
  const devicePoll = rowOf(page, 'Configuration', 'BALENA_SUPERVISOR_POLL_INTERVAL');
  await expect(devicePoll).toContainText('From fleet');
  await page.getByRole('button', { name: 'Edit BALENA_SUPERVISOR_POLL_INTERVAL' }).click();
  const deviceEdit = page.getByRole('dialog', { name: 'Edit BALENA_SUPERVISOR_POLL_INTERVAL' });
  await expect(deviceEdit.getByLabel('Value')).toHaveValue('600000');
  await deviceEdit.getByLabel('Value').fill('120000');
  await deviceEdit.getByRole('button', { name: 'Stage change' }).click();
  await page.getByRole('region', { name: 'Pending changes' }).getByRole('button', { name: 'Apply all changes' }).click();
  await expect(page.getByRole('region', { name: 'Pending changes' })).toBeHidden();
  expect(await deviceConfig(admin, device.uuid)).toEqual({ BALENA_SUPERVISOR_POLL_INTERVAL: '120000' });
  const cells = devicePoll.getByRole('cell');
  await expect(cells.nth(1)).toContainText('120000');
  await expect(cells.nth(1)).toContainText('2 min');
  await expect(cells.nth(2)).toContainText('600000');
  await expect(cells.nth(2)).toContainText('10 min');
  await expect(devicePoll).not.toContainText('From fleet');

  // The effective-value panel names the level of each value and what it hides; it refreshed after apply.
  const panel = page.getByRole('region', { name: 'What this device gets' });
  const effectivePoll = panel.getByRole('table', { name: 'Configuration the device gets' }).getByRole('row').filter({ hasText: 'BALENA_SUPERVISOR_POLL_INTERVAL' });
  await expect(effectivePoll.getByRole('cell').nth(1)).toHaveText('120000');
  await expect(effectivePoll.getByRole('cell').nth(2)).toHaveText('Device config');
  await expect(effectivePoll.getByRole('cell').nth(3)).toContainText('600000');
  await expect(effectivePoll.getByRole('cell').nth(3)).toContainText('Fleet config');
  const greeting = panel.getByRole('table', { name: 'Environment of service main' }).getByRole('row').filter({ hasText: 'GREETING' });
  await expect(greeting.getByRole('cell').nth(1)).toHaveText('from the device');
  await expect(greeting.getByRole('cell').nth(2)).toHaveText('Device');
  await expect(greeting.getByRole('cell').nth(3)).toContainText('from the fleet');
  await expect(greeting.getByRole('cell').nth(3)).toContainText('Fleet');
  await expect(greeting.getByRole('cell').nth(3)).toContainText('from the image');
  await expect(greeting.getByRole('cell').nth(3)).toContainText('Service image');
  await expect(greeting.getByRole('cell').nth(3).locator('s').first()).toHaveText('from the fleet');
  const splashDefault = panel.getByRole('table', { name: 'Configuration the device gets' }).getByRole('row').filter({ hasText: 'BALENA_HOST_CONFIG_gpu_mem' });
  await expect(splashDefault.getByRole('cell').nth(2)).toHaveText('Default');

  // The fleet page lists the device among the overrides; deleting needs a selection.
  await page.goto(`/fleets/${fleetId}/config`);
  await page.getByRole('button', { name: 'Overrides of BALENA_SUPERVISOR_POLL_INTERVAL' }).click();
  const overrides = page.getByRole('dialog', { name: 'Devices that override BALENA_SUPERVISOR_POLL_INTERVAL' });
  const deviceName = (await apiAs<V7<'device', 'device_name'>>(request, admin, 'GET', `/v7/device(${device.id})?$select=device_name`)).d[0]!.device_name;
  await expect(overrides.getByRole('row').filter({ hasText: deviceName })).toContainText('120000');
  await expect(overrides.getByRole('button', { name: /^Delete \d+ overrides?$/ })).toBeDisabled();
  await overrides.getByRole('checkbox', { name: `Select ${deviceName}` }).check();
  await overrides.getByRole('button', { name: 'Delete 1 override' }).click();
  await expect(overrides.getByText('No device overrides this variable: every device gets the fleet\'s value.')).toBeVisible();
  expect(await deviceConfig(admin, device.uuid)).toEqual({});
  await overrides.getByRole('button', { name: 'Close' }).click();

  // The history of the firewall mode: old → new, who, newest first.
  await page.getByRole('button', { name: 'History of BALENA_HOST_FIREWALL_MODE' }).click();
  const history = page.getByRole('dialog', { name: 'History of BALENA_HOST_FIREWALL_MODE' });
  const changes = history.getByRole('table', { name: 'Changes of BALENA_HOST_FIREWALL_MODE' }).getByRole('row');
  await expect(changes.nth(1)).toContainText('Changed');
  await expect(changes.nth(1)).toContainText('auto → on');
  await expect(changes.nth(1)).toContainText(admin.username);
  await expect(changes.nth(2)).toContainText('Created');
  await history.getByRole('button', { name: 'Close' }).click();

  // The device variables page has the panel too, and each row its history.
  await page.goto(`/devices/${device.uuid}/envvars`);
  await expect(
    page.getByRole('region', { name: 'What this device gets' }).getByRole('table', { name: 'Environment of service main' }).getByRole('row').filter({ hasText: 'GREETING' }),
  ).toContainText('Device');
  await page.getByRole('button', { name: 'History of GREETING' }).click();
  const envHistory = page.getByRole('dialog', { name: 'History of GREETING' }).getByRole('row');
  await expect(envHistory.nth(1)).toContainText('Created');
  await expect(envHistory.nth(1)).toContainText('(none) → from the device');
  await expect(envHistory.nth(1)).toContainText(admin.username);
  await page.getByRole('dialog', { name: 'History of GREETING' }).getByRole('button', { name: 'Close' }).click();

  // The observer reads the pages and the history; every control that writes is disabled.
  const context = await browser.newContext();
  const observerPage = await context.newPage();
  await signIn(observerPage, observer.email);
  await observerPage.goto(`/fleets/${fleetId}/config`);
  await expect(observerPage.getByRole('switch', { name: 'BALENA_HOST_CONFIG_disable_splash' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Edit BALENA_HOST_FIREWALL_MODE' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Add custom configuration' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Remove the fleet value of BALENA_HOST_FIREWALL_MODE' })).toBeDisabled();
  await observerPage.goto(`/devices/${device.uuid}/config`);
  await expect(observerPage.getByRole('button', { name: 'Edit BALENA_SUPERVISOR_POLL_INTERVAL' })).toBeDisabled();
  await expect(observerPage.getByRole('region', { name: 'What this device gets' })).toBeVisible();
  await observerPage.goto(`/fleets/${fleetId}/config`);
  await observerPage.getByRole('button', { name: 'History of BALENA_HOST_FIREWALL_MODE' }).click();
  await expect(observerPage.getByRole('dialog', { name: 'History of BALENA_HOST_FIREWALL_MODE' }).getByRole('row').nth(1)).toContainText('auto → on');
  await context.close();

  expect(problems.errors).toEqual([]);
});

test("another organization's user gets neither the configuration pages, the effective values nor the history", async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('cfgowner'));
  const orgId = (await apiAs<{ id: number }>(request, owner, 'POST', '/v7/organization', { name: `Config owned ${stamp}` })).id;
  const fleetId = await fleetOfType(request, owner, orgId, `cfg_owned_${stamp}`);
  const device = await registerDevice(request, owner, fleetId);
  await apiAs(request, owner, 'POST', '/v7/application_config_variable', { application: fleetId, name: 'BALENA_SECRET_SETTING', value: 'mine' });
  await apiAs(request, owner, 'POST', '/v7/device_config_variable', { device: device.id, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '120000' });
  const stranger = await registerApiUser(request, newEmail('cfgstranger'));
  await signIn(page, stranger.email);

  // The shells treat an unreadable fleet or device as missing: away from the page, nothing shown.
  await page.goto(`/fleets/${fleetId}/config`);
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByText('BALENA_SECRET_SETTING')).toHaveCount(0);
  await page.goto(`/devices/${device.uuid}/config`);
  await expect(page).not.toHaveURL(/\/config$/);
  await expect(page.getByText('What this device gets')).toHaveCount(0);

  // What the pages read and write, as the stranger: nothing readable, every write refused, nothing written.
  const auth = { Authorization: `Bearer ${stranger.token}` };
  const effective = await request.get(`/device/${device.uuid}/effective-variables`, { headers: auth });
  expect(effective.status()).toBe(404);
  const history = await request.get(`/v7/variable_change?$select=id&$filter=${encodeURIComponent(`application eq ${fleetId}`)}`, { headers: auth });
  expect(history.status()).toBe(200);
  expect(((await history.json()) as { d: unknown[] }).d).toEqual([]);
  const post = await request.post('/v7/application_config_variable', { headers: auth, data: { application: fleetId, name: 'BALENA_INJECTED', value: 'x' } });
  expect(post.status()).toBeGreaterThanOrEqual(400);
  expect(post.status()).toBeLessThan(500);
  const postDevice = await request.post('/v7/device_config_variable', { headers: auth, data: { device: device.id, name: 'BALENA_INJECTED', value: 'x' } });
  expect(postDevice.status()).toBeGreaterThanOrEqual(400);
  expect(postDevice.status()).toBeLessThan(500);
  expect(await fleetConfig(owner, fleetId)).toEqual({ BALENA_SECRET_SETTING: 'mine' });
  expect(await deviceConfig(owner, device.uuid)).toEqual({ BALENA_SUPERVISOR_POLL_INTERVAL: '120000' });
  // The owner's own history has both writes, so the empty answer above is the permission, not an empty table.
  const own = await request.get(`/v7/variable_change?$select=id&$filter=${encodeURIComponent(`application eq ${fleetId}`)}`, { headers: { Authorization: `Bearer ${owner.token}` } });
  expect(((await own.json()) as { d: unknown[] }).d).toHaveLength(2);
});

test("a write the server refuses during apply stays staged with the server's message; the others apply", async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('cfgrace'));
  const orgId = (await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: `Config race ${stamp}` })).id;
  const fleetId = await fleetOfType(request, admin, orgId, `cfg_race_${stamp}`);
  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}/config`);
  await page.getByRole('switch', { name: 'BALENA_SUPERVISOR_DELTA' }).click();
  await page.getByRole('button', { name: 'Add custom configuration' }).click();
  const add = page.getByRole('dialog', { name: 'Add custom configuration' });
  await add.getByLabel('Name').fill('BALENA_RACE');
  await add.getByLabel('Value').fill('from the page');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  // Meanwhile someone else creates the same variable: the page's POST meets the unique key.
  await apiAs(request, admin, 'POST', '/v7/application_config_variable', { application: fleetId, name: 'BALENA_RACE', value: 'from elsewhere' });
  const bar = page.getByRole('region', { name: 'Pending changes' });
  await bar.getByRole('button', { name: 'Apply all changes' }).click();
  await expect(bar).toContainText('Some changes failed to apply');
  await expect(bar).toContainText('1 pending change');
  const race = rowOf(page, 'Custom configuration', 'BALENA_RACE').filter({ hasText: 'Added' });
  await expect(race.getByRole('alert')).toHaveText('Unique key constraint violated');
  await expect(race).toContainText('from the page');
  await expect(rowOf(page, 'Configuration', 'BALENA_SUPERVISOR_DELTA')).not.toContainText('Added');
  expect(await fleetConfig(admin, fleetId)).toEqual({ BALENA_SUPERVISOR_DELTA: 'true', BALENA_RACE: 'from elsewhere' });
});
