import { expect, test, type Page } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type V7 } from './support/api';
import { arrangeSql } from './support/db';
import { createApplication } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * Application lists and the create dialog (spec 2 §2, §5, §7, §9; spec 1 §2 and line 7):
 * /fleets, /blocks, /apps and their /orgs/{orgId}/… forms, the table and grid lenses, the
 * empty state, the create dialog with its suggestion, name rules and device-type states,
 * the apps flag in the sidebar, and the discontinued device-type warning of the shell.
 */

const SUGGESTION = /^[a-z]+-[a-z]+$/;

async function suggestedName(page: Page, dialogName: string): Promise<string> {
  const name = page.getByRole('dialog', { name: dialogName }).getByLabel(/name$/);
  await expect(name).toHaveValue(SUGGESTION);
  return name.inputValue();
}

test('a user creates a fleet with the suggested name and a block, and sees them in every list and lens', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('listsadmin'));
  const orgName = `Lists E2E ${stamp}`;
  const { id: orgId } = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: orgName });
  const existingBlock = `Edge-${stamp}`;
  await createApplication(request, admin, orgId, existingBlock, 'block');

  // Someone else's public fleet: everybody may read it, but it is nobody else's fleet.
  const stranger = await registerApiUser(request, newEmail('listsstranger'));
  const { id: strangerOrg } = await apiAs<{ id: number }>(request, stranger, 'POST', '/v7/organization', { name: `Stranger ${stamp}` });
  const publicFleet = await createApplication(request, stranger, strangerOrg, `public-${stamp}`, 'fleet');
  await apiAs(request, stranger, 'PATCH', `/v7/application(${publicFleet})`, { is_public: true });
  expect((await apiAs<{ d: unknown[] }>(request, admin, 'GET', `/v7/application(${publicFleet})?$select=id`)).d).toHaveLength(1);

  // A new user's fleet list is empty: the empty state links to Flotilla's own guide (issue 11),
  // which this server serves.
  await signIn(page, admin.email);
  const empty = page.getByRole('region', { name: "You don't have any fleets yet" });
  const docsLink = empty.getByRole('link', { name: 'Read the fleet documentation' });
  await expect(docsLink).toHaveAttribute('href', '/docs/fleets');
  const guide = await request.get('/docs/fleets');
  expect(guide.status()).toBe(200);
  expect(await guide.text()).toContain('<h1>Fleets</h1>');

  // The create dialog from the empty state: the class is preselected, a name is suggested.
  await empty.getByRole('button', { name: 'Create fleet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create fleet' });
  await dialog.getByLabel('Organization').selectOption({ label: orgName });
  await expect(dialog.getByLabel('Class', { exact: true })).toHaveValue('fleet');
  const firstSuggestion = await suggestedName(page, 'Create fleet');

  // Device types: the recommended one is selected; types in another state are disabled.
  const deviceType = dialog.getByRole('combobox', { name: 'Device type' });
  await expect(deviceType).toHaveValue('Raspberry Pi 4 (using 64bit OS)');
  await deviceType.click();
  const types = page.getByRole('listbox');
  await expect(types.getByRole('option').filter({ hasText: 'Recommended' })).toHaveText(['Raspberry Pi 4 (using 64bit OS)Recommended']);
  await expect(types.getByRole('option', { name: 'Balena Fin (CM3) (unavailable)' })).toHaveAttribute('aria-disabled', 'true');
  // Every balenaOS board runs several containers (issue 12): the Pi 1 / Zero is offered too.
  await expect(types.getByRole('option', { name: 'Raspberry Pi (v1 / Zero / Zero W)', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(types.getByRole('option', { name: 'Raspberry Pi 3', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');

  // Name rules as one types: empty, a clash named by its class (case-insensitive), then fine.
  const name = dialog.getByLabel('Fleet name');
  const create = dialog.getByRole('button', { name: 'Create fleet' });
  await name.fill('');
  await expect(dialog.getByText('missing required attributes')).toBeVisible();
  await expect(create).toBeDisabled();
  await name.fill(existingBlock.toUpperCase());
  await expect(dialog.getByText('A block with this name already exists')).toBeVisible();
  await expect(create).toBeDisabled();
  await name.fill(firstSuggestion);
  await expect(dialog.getByText('A block with this name already exists')).toBeHidden();
  await create.click();

  // Creating opens the new fleet.
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/fleets\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: firstSuggestion })).toBeVisible();

  // /fleets: the table lens lists it with organization, device type and device count.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Fleets' }).click();
  const row = page.getByRole('table', { name: 'Fleets' }).getByRole('row').filter({ hasText: firstSuggestion });
  await expect(row).toContainText(orgName);
  await expect(row).toContainText('Raspberry Pi 4 (using 64bit OS)');
  await expect(row).toContainText('0 devices');
  // The grid lens, remembered across a reload.
  await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'Grid' }).click();
  const grid = page.getByRole('list', { name: 'Fleets' });
  await expect(grid.getByRole('link', { name: firstSuggestion })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Fleets' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Fleets' }).getByRole('link', { name: firstSuggestion })).toBeVisible();

  // /orgs/{orgId}/fleets: the organization's fleets, in both lenses.
  await page.goto(`/orgs/${orgId}/fleets`);
  await expect(page.getByRole('heading', { level: 1, name: `Fleets of ${orgName}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Fleets' }).getByRole('link', { name: firstSuggestion })).toBeVisible();
  await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'Table' }).click();
  await expect(page.getByRole('table', { name: 'Fleets' }).getByRole('link', { name: firstSuggestion })).toBeVisible();

  // Opened from the organization's list, the dialog preselects it and suggests another name.
  await page.getByRole('button', { name: 'Create fleet' }).click();
  await expect(dialog.getByLabel('Organization')).toHaveValue(String(orgId));
  const secondSuggestion = await suggestedName(page, 'Create fleet');
  expect(secondSuggestion.toLowerCase()).not.toBe(firstSuggestion.toLowerCase());
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // /blocks: the existing block is listed; a block is created with the block class preselected.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Blocks' }).click();
  await expect(page).toHaveURL(/\/blocks$/);
  await expect(page.getByRole('table', { name: 'Blocks' }).getByRole('link', { name: existingBlock })).toBeVisible();
  await page.getByRole('button', { name: 'Create block' }).click();
  const blockDialog = page.getByRole('dialog', { name: 'Create block' });
  await blockDialog.getByLabel('Organization').selectOption({ label: orgName });
  await expect(blockDialog.getByLabel('Class', { exact: true })).toHaveValue('block');
  const blockName = `gateway-${stamp}`;
  await blockDialog.getByLabel('Block name').fill(blockName);
  await blockDialog.getByRole('button', { name: 'Create block' }).click();
  await expect(page).toHaveURL(/\/blocks\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: blockName })).toBeVisible();
  await page.goto(`/orgs/${orgId}/blocks`);
  const blocks = page.getByRole('table', { name: 'Blocks' });
  await expect(blocks.getByRole('link', { name: blockName })).toBeVisible();
  await expect(blocks.getByRole('link', { name: existingBlock })).toBeVisible();
  await expect(blocks.getByRole('link', { name: firstSuggestion })).toHaveCount(0);
});

test('Apps appears in the sidebar, with an Alpha badge, only with the apps flag', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const user = await registerApiUser(request, newEmail('listsapps'));
  const { id: orgId } = await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name: `Apps list E2E ${stamp}` });
  const appName = `kiosk-${stamp}`;
  await createApplication(request, user, orgId, appName, 'app');

  await signIn(page, user.email);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Blocks' })).toBeVisible();
  await expect(nav.getByRole('link', { name: /Apps/ })).toHaveCount(0);
  // Without the flag the apps lists do not exist.
  await page.goto('/apps');
  await expect(page).toHaveURL(/\/fleets$/);
  await page.goto(`/orgs/${orgId}/apps`);
  await expect(page).toHaveURL(/\/fleets$/);

  await apiAs(request, user, 'PATCH', `/v7/user(${user.id})`, { displays_apps: true });
  await page.reload();
  await expect(nav.getByRole('link', { name: 'Apps Alpha' })).toBeVisible();
  await nav.getByRole('link', { name: 'Apps Alpha' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('table', { name: 'Apps' }).getByRole('link', { name: appName })).toBeVisible();
  await page.goto(`/orgs/${orgId}/apps`);
  await expect(page.getByRole('table', { name: 'Apps' }).getByRole('link', { name: appName })).toBeVisible();
});

test('the application shell warns about a discontinued device type and a legacy type, which an administrator upgrades', async ({ page, browser, request }) => {
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('listswarn'));
  const member = await registerApiUser(request, newEmail('listswarnmember'));
  const orgId = await organizationWithMember(request, admin, member, `Warn E2E ${stamp}`);
  const lookup = async (resource: string, slug: string) =>
    (await apiAs<{ d: { id: number }[] }>(request, admin, 'GET', `/v7/${resource}?$select=id&$filter=${encodeURIComponent(`slug eq '${slug}'`)}`)).d[0]!.id;
  const discontinued = await lookup('device_type', 'fincm3');
  const pi4 = await lookup('device_type', 'raspberrypi4-64');
  const starter = await lookup('application_type', 'starter');
  // The API refuses new fleets for a discontinued type, so the fleet is made for a released
  // one and then given the discontinued type, as if it had been discontinued since.
  const oldType = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/application', {
    app_name: `old-${stamp}`,
    organization: orgId,
    is_for__device_type: await lookup('device_type', 'beaglebone-black'),
  });
  await arrangeSql('UPDATE application SET is_for__device_type = $1 WHERE id = $2', [discontinued, oldType.id]);
  const legacy = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/application', {
    app_name: `legacy-${stamp}`,
    organization: orgId,
    is_for__device_type: pi4,
    application_type: starter,
  });

  await signIn(page, admin.email);
  await page.goto(`/fleets/${oldType.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `old-${stamp}` })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'The device type Balena Fin (CM3) is discontinued' })).toBeVisible();

  // The legacy warning offers the administrator the upgrade: non-legacy types only.
  await page.goto(`/fleets/${legacy.id}`);
  const warning = page.getByRole('alert').filter({ hasText: 'This fleet uses the legacy application type Starter.' });
  await expect(warning).toBeVisible();
  await warning.getByRole('button', { name: 'Upgrade type' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the application type' });
  const types = dialog.getByLabel('Application type');
  await expect(types.locator('option')).toHaveText(['Essentials', 'Microservices']);
  await types.selectOption({ label: 'Microservices' });
  await dialog.getByRole('button', { name: 'Change type' }).click();
  await expect(dialog).toBeHidden();
  await expect(warning).toHaveCount(0);
  const after = await apiAs<V7<'application', 'application_type'>>(request, admin, 'GET', `/v7/application(${legacy.id})?$select=application_type`);
  expect(after.d[0]!.application_type?.__id).toBe(await lookup('application_type', 'microservices'));

  // A fleet developer (no resin.application.change-type) sees the warning but not the action.
  await apiAs(request, admin, 'PATCH', `/v7/application(${legacy.id})`, { application_type: starter });
  const developer = await apiAs<V7<'application_membership_role', 'id'>>(
    request,
    admin,
    'GET',
    `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'developer'")}`,
  );
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', {
    user: member.id,
    is_member_of__application: legacy.id,
    application_membership_role: developer.d[0]!.id,
  });
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member.email);
  await memberPage.goto(`/fleets/${legacy.id}`);
  const memberWarning = memberPage.getByRole('alert').filter({ hasText: 'This fleet uses the legacy application type Starter.' });
  await expect(memberWarning).toBeVisible();
  await expect(memberWarning.getByRole('button', { name: 'Upgrade type' })).toHaveCount(0);
  await memberContext.close();
});
