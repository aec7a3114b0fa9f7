import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { createApplication } from './support/fleets';
import { deployRelease, newCommit } from './support/releases';
import { newEmail, signIn } from './support/users';

/*
 * Issue 4 (spec 2 §2 fleet pages and /deploy, §4 release flags and support access, §5 fleet
 * rules and destructive confirmations, §6): the fleet summary cards, the settings page, the
 * provisioning keys page and the /deploy deep link.
 */

const COMPOSITION = { version: '2.1', services: { main: { build: './main' } } };

interface FleetSetup {
  admin: ApiUser;
  observer: ApiUser;
  orgId: number;
  fleetId: number;
  fleetName: string;
}

/** An organization administrator with a fleet, and an organization member who observes it. */
async function fleetWithObserver(request: APIRequestContext, tag: string): Promise<FleetSetup> {
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail(`${tag}admin`));
  const observer = await registerApiUser(request, newEmail(`${tag}observer`));
  const orgId = await organizationWithMember(request, admin, observer, `Settings E2E ${tag} ${stamp}`);
  const fleetName = `${tag}-fleet-${stamp}`;
  const fleetId = await createApplication(request, admin, orgId, fleetName, 'fleet');
  const roles = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: fleetId, application_membership_role: roles.d[0]!.id });
  return { admin, observer, orgId, fleetId, fleetName };
}

async function fleetRow(request: APIRequestContext, user: ApiUser, fleetId: number) {
  const res = await apiAs<{ d: Record<string, unknown>[] }>(
    request,
    user,
    'GET',
    `/v7/application(${fleetId})?$select=app_name,should_track_latest_release,should_be_running__release,is_accessible_by_support_until__date`,
  );
  return res.d[0];
}

test('summary cards show real data; a developer pins and unpins a release, grants and revokes support access and renames the fleet', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const { admin, fleetId, fleetName } = await fleetWithObserver(request, 'summ');
  const first = newCommit();
  const second = newCommit();
  const firstId = await deployRelease(request, admin, fleetId, { commit: first, composition: COMPOSITION, services: [{ name: 'main' }], semver: '1.0.0' });
  const secondId = await deployRelease(request, admin, fleetId, { commit: second, composition: COMPOSITION, services: [{ name: 'main' }], semver: '1.1.0' });
  // A running build is listed; a failed one is not.
  const running = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/release', {
    belongs_to__application: fleetId,
    commit: newCommit(),
    composition: COMPOSITION,
    status: 'running',
    source: 'local',
  });
  const failedCommit = newCommit();
  await apiAs(request, admin, 'POST', '/v7/release', { belongs_to__application: fleetId, commit: failedCommit, composition: COMPOSITION, status: 'failed', source: 'local' });

  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}`);
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText(fleetName);
  await expect(details).toContainText('tracking latest');
  await expect(details).toContainText(/Support access\s*off/);
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices).toContainText(/Total\s*0/);
  await expect(devices).toContainText(/Operational\s*0/);
  const releases = page.getByRole('region', { name: 'Releases' });
  await expect(releases.getByRole('link')).toHaveCount(3);
  await expect(releases.getByRole('link', { name: new RegExp(second.slice(0, 7)) })).toHaveAttribute('href', `/fleets/${fleetId}/releases/${secondId}`);
  await expect(releases.getByRole('link', { name: new RegExp(first.slice(0, 7)) })).toHaveAttribute('href', `/fleets/${fleetId}/releases/${firstId}`);
  await expect(releases.getByRole('link').first()).toHaveAttribute('href', `/fleets/${fleetId}/releases/${running.id}`);
  await expect(releases).not.toContainText(failedCommit.slice(0, 7));
  await expect(page.getByRole('region', { name: 'Device list' })).toContainText('This fleet has no devices yet.');

  // Pin to the first release, then back to tracking the latest.
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/settings$`));
  const releaseSelect = page.getByRole('combobox', { name: 'Default release' });
  await expect(releaseSelect).toHaveValue('track-latest');
  await releaseSelect.selectOption({ value: first });
  await page.getByRole('region', { name: 'Default release' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('successfully pinned to release')).toBeVisible();
  await expect.poll(async () => (await fleetRow(request, admin, fleetId))?.should_track_latest_release).toBe(false);
  expect((await fleetRow(request, admin, fleetId))?.should_be_running__release).toEqual({ __id: firstId });
  await page.getByRole('tab', { name: 'Summary' }).click();
  await expect(page.getByRole('region', { name: 'Details' })).toContainText(`pinned to 1.0.0 (${first.slice(0, 7)})`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('combobox', { name: 'Default release' })).toHaveValue(first);
  await page.getByRole('combobox', { name: 'Default release' }).selectOption({ value: 'track-latest' });
  await page.getByRole('region', { name: 'Default release' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('successfully track default')).toBeVisible();
  await expect.poll(async () => (await fleetRow(request, admin, fleetId))?.should_track_latest_release).toBe(true);

  // Support access: the picker defaults to 5 days ahead; granted, then revoked.
  const support = page.getByRole('region', { name: 'Support access' });
  await expect(support.getByRole('status')).toHaveText('off');
  await support.getByRole('button', { name: 'Grant support access' }).click();
  const grant = page.getByRole('dialog', { name: 'Grant support access' });
  const until = await grant.getByLabel('Access until').inputValue();
  const daysAhead = (new Date(until).getTime() - Date.now()) / 86_400_000;
  expect(daysAhead).toBeGreaterThan(4.9);
  expect(daysAhead).toBeLessThan(5.1);
  await grant.getByRole('button', { name: 'Grant support access' }).click();
  await expect(grant).toBeHidden();
  await expect(page.getByText('Support access granted')).toBeVisible();
  await expect(support.getByRole('status')).toContainText('on');
  expect((await fleetRow(request, admin, fleetId))?.is_accessible_by_support_until__date).not.toBeNull();
  await support.getByRole('button', { name: 'Revoke support access' }).click();
  await expect(page.getByText('Support access revoked')).toBeVisible();
  await expect(support.getByRole('status')).toHaveText('off');
  expect((await fleetRow(request, admin, fleetId))?.is_accessible_by_support_until__date).toBeNull();

  // Rename: the dialog starts from the current name and warns about restarts.
  const newName = `${fleetName}-renamed`;
  await page.getByRole('region', { name: 'Rename' }).getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename' });
  await expect(rename.getByLabel('New name')).toHaveValue(fleetName);
  await expect(rename).toContainText('restarts the application containers');
  await rename.getByLabel('New name').fill('ab');
  await expect(rename.getByRole('button', { name: 'Rename' })).toBeDisabled();
  await rename.getByLabel('New name').fill(newName);
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();
  expect((await fleetRow(request, admin, fleetId))?.app_name).toBe(newName);

  expect(problems.errors).toEqual([]);
});

async function keysNamed(request: APIRequestContext, user: ApiUser, name: string) {
  const res = await apiAs<{ d: unknown[] }>(request, user, 'GET', `/v7/api_key?$select=id&$filter=${encodeURIComponent(`name eq '${name}'`)}`);
  return res.d;
}

test('a provisioning key is created (shown once) and revoked; an observer sees settings disabled', async ({ page, browser, request }) => {
  const problems = await watchPageProblems(page);
  const { admin, observer, fleetId } = await fleetWithObserver(request, 'keys');
  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}/api-keys`);
  await expect(page.getByText('This fleet has no provisioning keys.')).toBeVisible();
  await page.getByRole('button', { name: 'Create provisioning key' }).click();
  const create = page.getByRole('dialog', { name: 'Create provisioning key' });
  await create.getByLabel('Name', { exact: true }).fill('factory line 1');
  await create.getByLabel('Description (optional)').fill('flashing station');
  await create.getByLabel('Expires').selectOption({ label: 'Never' });
  await expect(create).toContainText('never expires');
  await create.getByLabel('Expires').selectOption({ label: 'In 7 days' });
  await create.getByRole('button', { name: 'Create' }).click();
  const created = page.getByRole('dialog', { name: 'Provisioning key created' });
  await expect(created).toContainText('it will not be shown again');
  const key = await created.getByLabel('Provisioning key').inputValue();
  expect(key.length).toBeGreaterThan(20);
  // Stored as a key of the fleet's actor (device registration with it comes with devices).
  expect(await keysNamed(request, admin, 'factory line 1')).toHaveLength(1);
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(created).toBeHidden();
  const table = page.getByRole('table', { name: 'Provisioning keys' });
  const row = table.getByRole('row', { name: /factory line 1/ });
  await expect(row).toContainText('flashing station');
  await expect(table).not.toContainText(key);

  await row.getByRole('button', { name: 'Revoke factory line 1' }).click();
  await page.getByRole('dialog', { name: 'Revoke provisioning key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('factory line 1 revoked')).toBeVisible();
  await expect(page.getByText('This fleet has no provisioning keys.')).toBeVisible();
  expect(await keysNamed(request, admin, 'factory line 1')).toHaveLength(0);

  // An observer reads the settings with every control disabled, and not the keys.
  const observerContext = await browser.newContext();
  const observerPage = await observerContext.newPage();
  const observerProblems = await watchPageProblems(observerPage);
  await signIn(observerPage, observer.email);
  await observerPage.goto(`/fleets/${fleetId}/settings`);
  const renameButton = observerPage.getByRole('region', { name: 'Rename' }).getByRole('button', { name: 'Rename' });
  await expect(renameButton).toBeDisabled();
  await expect(observerPage.getByRole('region', { name: 'Support access' }).getByRole('button', { name: 'Grant support access' })).toBeDisabled();
  await expect(observerPage.getByRole('combobox', { name: 'Default release' })).toBeDisabled();
  await expect(observerPage.getByRole('button', { name: 'Delete fleet' })).toBeDisabled();
  await expect(observerPage.getByRole('region', { name: 'Transfer ownership' })).toHaveCount(0);
  await observerPage.getByRole('region', { name: 'Rename' }).locator('span[tabindex="0"]').hover();
  await expect(observerPage.getByRole('tooltip')).toHaveText("You don't have the required permission for this action");
  await observerPage.goto(`/fleets/${fleetId}/api-keys`);
  await expect(observerPage.getByText('unauthorized to view or edit')).toBeVisible();
  await observerContext.close();

  expect(problems.errors).toEqual([]);
  expect(observerProblems.errors).toEqual([]);
});

test('/deploy shows the contract error for an unreachable code host and deploys to an existing fleet; a fleet is deleted by typing its name', async ({ page, request }) => {
  const problems = await watchPageProblems(page);
  const { admin, fleetId, fleetName } = await fleetWithObserver(request, 'depl');
  await signIn(page, admin.email);

  // e2e/playwright.config.ts points the raw-file host at a closed local port.
  await page.goto('/deploy?repoUrl=https://github.com/acme/sample&defaultDeviceType=intel-nuc');
  await expect(page.getByRole('heading', { level: 1, name: 'Deploy' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Failed retrieving data from GitHub: the code host is unreachable');
  await expect(page.getByRole('region', { name: 'Source' })).toContainText('intel-nuc');
  // 'Create new' opens the create dialog with the link's device type preselected.
  await page.getByRole('button', { name: 'Create new' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Create fleet' });
  await expect(createDialog.getByRole('combobox', { name: 'Device type' })).toHaveValue('Intel NUC');
  await createDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(createDialog).toBeHidden();
  await page.getByLabel('Fleet', { exact: true }).selectOption({ label: fleetName });
  await page.getByRole('button', { name: 'Continue with this fleet' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}$`));
  const stored = await page.evaluate(() => window.localStorage.getItem('flotilla.deploy-request'));
  expect(JSON.parse(stored ?? '{}')).toMatchObject({ request: { repoUrl: 'https://github.com/acme/sample', defaultDeviceType: 'intel-nuc', fleetId } });
  // Problems of the deploy page (the 502 is expected) are not the delete's.
  problems.errors.length = 0;

  // Delete: type the name (paste is blocked); the warning counts the devices.
  await page.goto(`/fleets/${fleetId}/settings`);
  await page.getByRole('button', { name: 'Delete fleet' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${fleetName}` });
  await expect(dialog).toContainText('It has no devices.');
  const input = dialog.getByLabel('Type the name to confirm');
  // A paste of the name is cancelled by the page (dispatchEvent answers false).
  const pasteAllowed = await input.evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    return el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, fleetName);
  expect(pasteAllowed).toBe(false);
  await expect(input).toHaveValue('');
  await expect(dialog.getByRole('button', { name: 'Delete fleet' })).toBeDisabled();
  await input.pressSequentially(fleetName.slice(0, -1));
  await expect(dialog.getByRole('button', { name: 'Delete fleet' })).toBeDisabled();
  await input.pressSequentially(fleetName.slice(-1));
  await dialog.getByRole('button', { name: 'Delete fleet' }).click();
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByText(`${fleetName} deleted`)).toBeVisible();
  const gone = await apiAs<{ d: unknown[] }>(request, admin, 'GET', `/v7/application(${fleetId})?$select=id`);
  expect(gone.d).toEqual([]);

  expect(problems.errors).toEqual([]);
});
