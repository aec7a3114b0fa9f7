import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs, organizationWithMember, registerApiUser, type ApiUser, type V7 } from './support/api';
import { seriousViolations } from './support/axe';
import { watchPageProblems } from './support/csp';
import { arrangeSql } from './support/db';
import { organizationWithFleet } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * Issue 16: the fleet and device variables pages (spec 2 §2, §4, §5, §9). Every change is
 * staged per row and written only by 'Apply all changes'; what the server holds afterwards is
 * read back through the data API.
 */

// Each test signs up, builds a fleet and drives several page loads on a shared 2-core machine.
test.describe.configure({ timeout: 150_000 });
/** The first look at a freshly loaded page may wait for the route's chunks on a busy machine. */
const LOADED = { timeout: 30_000 };
/**
 * Page problems (CSP, console errors) except Chromium's ERR_NETWORK_CHANGED: other jobs on the
 * machine create container network interfaces, and Chromium then fails requests in flight.
 */
const realProblems = (errors: string[]) => errors.filter((e) => !e.includes('net::ERR_NETWORK_CHANGED'));

type Vars = Record<string, string>;

async function fleetEnv(request: APIRequestContext, user: ApiUser, fleetId: number): Promise<Vars> {
  const rows = await apiAs<V7<'application_environment_variable', 'name' | 'value'>>(
    request,
    user,
    'GET',
    `/v7/application_environment_variable?$select=name,value&$filter=${encodeURIComponent(`application eq ${fleetId}`)}`,
  );
  return Object.fromEntries(rows.d.map((r) => [r.name, r.value]));
}

async function serviceEnv(request: APIRequestContext, user: ApiUser, serviceId: number): Promise<Vars> {
  const rows = await apiAs<V7<'service_environment_variable', 'name' | 'value'>>(
    request,
    user,
    'GET',
    `/v7/service_environment_variable?$select=name,value&$filter=${encodeURIComponent(`service eq ${serviceId}`)}`,
  );
  return Object.fromEntries(rows.d.map((r) => [r.name, r.value]));
}

async function deviceEnv(request: APIRequestContext, user: ApiUser, deviceId: number): Promise<Vars> {
  const rows = await apiAs<V7<'device_environment_variable', 'name' | 'value'>>(
    request,
    user,
    'GET',
    `/v7/device_environment_variable?$select=name,value&$filter=${encodeURIComponent(`device eq ${deviceId}`)}`,
  );
  return Object.fromEntries(rows.d.map((r) => [r.name, r.value]));
}

const setFleetVar = (request: APIRequestContext, user: ApiUser, fleetId: number, name: string, value: string) =>
  apiAs(request, user, 'POST', '/v7/application_environment_variable', { application: fleetId, name, value });

async function newFleet(request: APIRequestContext, tag: string) {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const owner = await registerApiUser(request, newEmail(tag));
  const { fleetId, deviceTypeId } = await organizationWithFleet(request, owner, `Vars ${tag} ${stamp}`, `vars_${tag}_${stamp}`, 'raspberrypi4-64');
  return { owner, fleetId, deviceTypeId, stamp };
}

/** The table row of a variable (its name cell), on the page's variables table. */
const row = (page: Page, name: string, service = 'All services') =>
  page
    .getByRole('table', { name: 'Variables' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name, exact: true }) })
    .filter({ has: page.getByRole('cell', { name: service, exact: true }) });

async function addVariable(page: Page, name: string, value: string, service?: string) {
  await page.getByRole('button', { name: 'Add variable' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add variable' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Value').fill(value);
  if (service) await dialog.getByLabel('Service').selectOption({ label: service });
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
}

async function editVariable(page: Page, name: string, value: string) {
  await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Edit variable ${name}` });
  await dialog.getByLabel('Value').fill(value);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('fleet variables: add, edit and delete are staged per row with undo; revert all asks first; apply all writes exactly the staged values', async ({ page, request }) => {
  const problems = await watchPageProblems(page);
  const { owner, fleetId } = await newFleet(request, 'apply');
  const service = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/service', { application: fleetId, service_name: 'web' });
  await setFleetVar(request, owner, fleetId, 'KEEP', '1');
  await setFleetVar(request, owner, fleetId, 'EDIT_ME', 'old');
  await setFleetVar(request, owner, fleetId, 'DROP_ME', 'x');

  await signIn(page, owner.email);
  await page.goto(`/fleets/${fleetId}`);
  await page.getByRole('tablist', { name: 'Fleet sections' }).getByRole('tab', { name: 'Variables' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/envvars$`));
  await expect(page.getByRole('heading', { name: 'Fleet variables' })).toBeVisible(LOADED);
  await expect(row(page, 'KEEP')).toContainText('1');

  const stage = async () => {
    await addVariable(page, 'NEW_VAR', 'hello');
    await addVariable(page, 'SVC_VAR', 'svc value', 'web');
    await editVariable(page, 'EDIT_ME', 'new');
    await page.getByRole('button', { name: 'Delete DROP_ME', exact: true }).click();
  };
  await stage();
  await expect(row(page, 'NEW_VAR')).toContainText('Added');
  await expect(row(page, 'SVC_VAR', 'web')).toContainText('Added');
  await expect(row(page, 'EDIT_ME')).toContainText('Changed');
  await expect(row(page, 'EDIT_ME')).toContainText('new');
  await expect(row(page, 'DROP_ME')).toContainText('Deleted');
  await expect(row(page, 'KEEP')).not.toContainText(/Added|Changed|Deleted/);
  const bar = page.getByRole('region', { name: 'Pending changes' });
  await expect(bar).toContainText('4 pending changes');

  // Per-row undo.
  await page.getByRole('button', { name: 'Undo the change of DROP_ME' }).click();
  await expect(row(page, 'DROP_ME')).not.toContainText('Deleted');
  await expect(bar).toContainText('3 pending changes');

  // Revert all asks first; Cancel keeps everything, confirming drops everything.
  await bar.getByRole('button', { name: 'Revert all changes' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revert all changes?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(bar).toContainText('3 pending changes');
  await bar.getByRole('button', { name: 'Revert all changes' }).click();
  await confirm.getByRole('button', { name: 'Revert all' }).click();
  await expect(bar).toBeHidden();
  await expect(row(page, 'NEW_VAR')).toHaveCount(0);
  await expect(row(page, 'EDIT_ME')).toContainText('old');
  expect(await fleetEnv(request, owner, fleetId)).toEqual({ KEEP: '1', EDIT_ME: 'old', DROP_ME: 'x' });

  // Staged again, then applied: the server holds exactly the staged values.
  await stage();
  await expect(bar).toContainText('4 pending changes');
  await bar.getByRole('button', { name: 'Apply all changes' }).click();
  await expect(page.getByText('All changes applied')).toBeVisible();
  await expect(bar).toBeHidden();
  await expect(row(page, 'DROP_ME')).toHaveCount(0);
  await expect(row(page, 'NEW_VAR')).not.toContainText('Added');
  expect(await fleetEnv(request, owner, fleetId)).toEqual({ KEEP: '1', EDIT_ME: 'new', NEW_VAR: 'hello' });
  expect(await serviceEnv(request, owner, service.id)).toEqual({ SVC_VAR: 'svc value' });
  expect(realProblems(problems.errors)).toEqual([]);
});

test('leaving with pending changes warns; dismissing stays on the page with the changes', async ({ page, request }) => {
  const { owner, fleetId } = await newFleet(request, 'leave');
  await signIn(page, owner.email);
  await page.goto(`/fleets/${fleetId}/envvars`);
  await expect(page.getByText('No variables yet — add one')).toBeVisible(LOADED);
  // The page's documentation link opens the Variables guide shipped with the server.
  const docs = page.getByRole('link', { name: 'Read about variables' });
  await expect(docs).toHaveAttribute('href', '/docs/variables');
  const guide = await request.get('/docs/variables');
  expect(guide.status()).toBe(200);
  expect(await guide.text()).toContain('Apply all changes');
  await addVariable(page, 'PENDING', 'yes');

  const messages: string[] = [];
  page.once('dialog', (d) => {
    messages.push(d.message());
    void d.dismiss();
  });
  await page.getByRole('tablist', { name: 'Fleet sections' }).getByRole('tab', { name: 'Releases' }).click();
  await expect.poll(() => messages).toEqual(['changes not saved, click OK to proceed']);
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/envvars$`));
  await expect(row(page, 'PENDING')).toContainText('Added');

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('tablist', { name: 'Fleet sections' }).getByRole('tab', { name: 'Releases' }).click();
  await expect(page).toHaveURL(new RegExp(`/fleets/${fleetId}/releases$`));
  expect(await fleetEnv(request, owner, fleetId)).toEqual({});
});

test("a bad name shows the model's message in the dialog and nothing is staged or written", async ({ page, request }) => {
  const { owner, fleetId } = await newFleet(request, 'badname');
  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('environment_variable')) writes.push(`${r.method()} ${r.url()}`);
  });
  await signIn(page, owner.email);
  await page.goto(`/fleets/${fleetId}/envvars`);
  await page.getByRole('button', { name: 'Add variable' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add variable' });
  await dialog.getByLabel('Name').fill('1BAD-NAME');
  await dialog.getByLabel('Value').fill('v');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('Environment variables should start with a letter and only contain letters, digits and underscores.')).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Name').fill('BALENA_SUPERVISOR_POLL_INTERVAL');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('Configuration variables are managed through the Configuration page.')).toBeVisible();
  await dialog.getByLabel('Name').fill('RESIN_DEVICE_UUID');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('This environment variable is reserved and cannot be used.')).toBeVisible();
  // A value over 1 MB: the model's limit, before anything is staged.
  await dialog.getByLabel('Name').fill('BIG');
  await dialog.getByLabel('Value').fill('x'.repeat(1024 * 1024 + 1));
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('A variable value cannot be longer than 1 MB (1048576 characters).')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'Pending changes' })).toBeHidden();
  expect(writes).toEqual([]);
  expect(await fleetEnv(request, owner, fleetId)).toEqual({});
});

test("a server refusal during apply leaves that row staged with the server's message; the others apply", async ({ page, request }) => {
  const { owner, fleetId } = await newFleet(request, 'refusal');
  await setFleetVar(request, owner, fleetId, 'KEEP', '1');
  await signIn(page, owner.email);
  await page.goto(`/fleets/${fleetId}/envvars`);
  await addVariable(page, 'DUP', 'from the browser');
  await editVariable(page, 'KEEP', '2');
  // Someone else creates the same name meanwhile: the server refuses the browser's add (409).
  await setFleetVar(request, owner, fleetId, 'DUP', 'from the api');

  const bar = page.getByRole('region', { name: 'Pending changes' });
  await bar.getByRole('button', { name: 'Apply all changes' }).click();
  await expect(bar).toContainText('Some changes failed to apply');
  await expect(bar).toContainText('1 pending change');
  const dup = row(page, 'DUP').filter({ hasText: 'Added' });
  await expect(dup).toContainText('A variable with this name already exists.');
  await expect(dup).toContainText('from the browser');
  await expect(row(page, 'KEEP')).not.toContainText('Changed');
  expect(await fleetEnv(request, owner, fleetId)).toEqual({ KEEP: '2', DUP: 'from the api' });

  // Undoing the failed row leaves nothing pending: the bar and its failure summary go.
  await dup.getByRole('button', { name: 'Undo the change of DUP' }).click();
  await expect(bar).toBeHidden();
  await expect(row(page, 'DUP')).toContainText('from the api');
});

test('a device override set on the device page shows beside the fleet value and in the fleet overrides dialog (5 a page), where selected overrides are deleted', async ({ page, request }) => {
  const problems = await watchPageProblems(page);
  const { owner, fleetId, deviceTypeId, stamp } = await newFleet(request, 'override');
  await setFleetVar(request, owner, fleetId, 'GREETING', 'fleet hello');
  const device = await apiAs<{ id: number; uuid: string }>(request, owner, 'POST', '/v7/device', {
    belongs_to__application: fleetId,
    is_of__device_type: deviceTypeId,
    device_name: `override-${stamp}`,
  });
  await signIn(page, owner.email);
  await page.goto(`/devices/${device.uuid}`);
  await page.getByRole('tablist', { name: 'Device sections' }).getByRole('tab', { name: 'Variables' }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${device.uuid}/envvars$`));
  await expect(row(page, 'GREETING')).toContainText('fleet hello', LOADED);
  await expect(row(page, 'GREETING')).toContainText('From the fleet');

  await page.getByRole('button', { name: 'Override GREETING on this device' }).click();
  const dialog = page.getByRole('dialog', { name: 'Override GREETING on this device' });
  await expect(dialog.getByLabel('Value')).toHaveValue('fleet hello');
  await dialog.getByLabel('Value').fill('device hello');
  await dialog.getByRole('button', { name: 'Override' }).click();
  await expect(row(page, 'GREETING')).toContainText('Added');
  await expect(row(page, 'GREETING')).toContainText('overrides fleet value fleet hello');
  await page.getByRole('region', { name: 'Pending changes' }).getByRole('button', { name: 'Apply all changes' }).click();
  await expect(page.getByRole('region', { name: 'Pending changes' })).toBeHidden();
  await expect(row(page, 'GREETING')).toContainText('device hello');
  await expect(row(page, 'GREETING')).toContainText('overrides fleet value fleet hello');
  await expect(row(page, 'GREETING')).not.toContainText('From the fleet');
  expect(await deviceEnv(request, owner, device.id)).toEqual({ GREETING: 'device hello' });

  // Five more devices override it through the API: the dialog pages them five at a time.
  for (let i = 0; i < 5; i += 1) {
    const other = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/device', {
      belongs_to__application: fleetId,
      is_of__device_type: deviceTypeId,
      device_name: `other-${i}-${stamp}`,
    });
    await apiAs(request, owner, 'POST', '/v7/device_environment_variable', { device: other.id, name: 'GREETING', value: `other ${i}` });
  }
  const deletes: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'DELETE') deletes.push(r.url());
  });
  await page.goto(`/fleets/${fleetId}/envvars`);
  await page.getByRole('button', { name: 'Device overrides of GREETING' }).click();
  const overrides = page.getByRole('dialog', { name: 'Devices overriding GREETING' });
  const table = overrides.getByRole('table', { name: 'Device overrides' });
  await expect(table.getByRole('row')).toHaveCount(6, LOADED); // the header and five devices
  await expect(table).toContainText(`override-${stamp}`);
  await expect(table).toContainText('device hello');
  await expect(overrides.getByText('1–5 of 6')).toBeVisible();
  // Delete needs a selection: disabled with none, and nothing reaches the server.
  const deleteButton = overrides.getByRole('button', { name: 'Delete selected overrides' });
  await expect(deleteButton).toBeDisabled();
  await overrides.getByRole('button', { name: 'Go to next page' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await overrides.getByRole('button', { name: 'Go to previous page' }).click();
  await overrides.getByRole('checkbox', { name: `Select the override on override-${stamp}` }).check();
  await expect(deleteButton).toBeEnabled();
  await deleteButton.click();
  const confirm = page.getByRole('dialog', { name: 'Delete the selected overrides?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Override deleted')).toBeVisible();
  await expect(table).not.toContainText(`override-${stamp}`);
  await expect(overrides.getByText('1–5 of 5')).toHaveCount(0);
  expect(deletes).toHaveLength(1);
  expect(await deviceEnv(request, owner, device.id)).toEqual({});
  expect(realProblems(problems.errors)).toEqual([]);
});

test('an observer sees the variables read-only: no add, edit, delete or apply', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('varsadmin'));
  const observer = await registerApiUser(request, newEmail('varsobserver'));
  const orgId = await organizationWithMember(request, admin, observer, `Vars observer ${stamp}`);
  const types = await apiAs<V7<'device_type', 'id'>>(request, admin, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent("slug eq 'raspberrypi4-64'")}`);
  const fleet = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/application', {
    app_name: `varsobs_${stamp}`,
    organization: orgId,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  const role = await apiAs<V7<'application_membership_role', 'id'>>(request, admin, 'GET', `/v7/application_membership_role?$select=id&$filter=${encodeURIComponent("name eq 'observer'")}`);
  await apiAs(request, admin, 'POST', '/v7/user_application_membership', { user: observer.id, is_member_of__application: fleet.id, application_membership_role: role.d[0]!.id });
  await setFleetVar(request, admin, fleet.id, 'VISIBLE', 'to observers');

  await signIn(page, observer.email);
  await page.goto(`/fleets/${fleet.id}/envvars`);
  await expect(row(page, 'VISIBLE')).toContainText('to observers', LOADED);
  await expect(page.getByText('You can read these variables')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add variable' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit VISIBLE' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete VISIBLE' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Device overrides of VISIBLE' })).toBeVisible();
});

test("another organization's user can neither open the fleet's variables page nor read or write its variables", async ({ page, request }) => {
  const { owner, fleetId, deviceTypeId, stamp } = await newFleet(request, 'owned');
  await setFleetVar(request, owner, fleetId, 'SECRET', 'mine');
  const device = await apiAs<{ id: number; uuid: string }>(request, owner, 'POST', '/v7/device', {
    belongs_to__application: fleetId,
    is_of__device_type: deviceTypeId,
    device_name: `owned-${stamp}`,
  });
  const stranger = await registerApiUser(request, newEmail('stranger'));
  await signIn(page, stranger.email);
  // The fleet shell treats an unreadable fleet as missing: back to /fleets, nothing shown.
  await page.goto(`/fleets/${fleetId}/envvars`);
  await expect(page).toHaveURL(/\/fleets$/, LOADED);
  await expect(page.getByText('SECRET')).toHaveCount(0);
  await page.goto(`/devices/${device.uuid}/envvars`);
  await expect(page).not.toHaveURL(/envvars/, LOADED);
  await expect(page.getByText('SECRET')).toHaveCount(0);
  // The data API the pages use shows the stranger nothing and refuses the writes the page would send.
  expect(await fleetEnv(request, stranger, fleetId)).toEqual({});
  const auth = { Authorization: `Bearer ${stranger.token}` };
  const post = await request.post('/v7/application_environment_variable', { headers: auth, data: { application: fleetId, name: 'INJECTED', value: 'x' } });
  expect(post.status()).toBeGreaterThanOrEqual(400);
  expect(post.status()).toBeLessThan(500);
  const postDevice = await request.post('/v7/device_environment_variable', { headers: auth, data: { device: device.id, name: 'INJECTED', value: 'x' } });
  expect(postDevice.status()).toBeGreaterThanOrEqual(400);
  expect(postDevice.status()).toBeLessThan(500);
  expect(await fleetEnv(request, owner, fleetId)).toEqual({ SECRET: 'mine' });
  expect(await deviceEnv(request, owner, device.id)).toEqual({});
});

test('service variables on a device: a fleet service variable is overridden for the service installed on the device, and a device service variable added', async ({ page, request }) => {
  const { owner, fleetId, deviceTypeId, stamp } = await newFleet(request, 'devsvc');
  const web = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/service', { application: fleetId, service_name: 'web' });
  await apiAs(request, owner, 'POST', '/v7/service_environment_variable', { service: web.id, name: 'SVC_GREETING', value: 'fleet web' });
  const device = await apiAs<{ id: number; uuid: string }>(request, owner, 'POST', '/v7/device', {
    belongs_to__application: fleetId,
    is_of__device_type: deviceTypeId,
    device_name: `devsvc-${stamp}`,
  });
  // Service installs come from the device's state reports; arranged directly here.
  await arrangeSql('INSERT INTO service_install (device, installs__service) VALUES ($1, $2)', [device.id, web.id]);

  await signIn(page, owner.email);
  await page.goto(`/devices/${device.uuid}/envvars`);
  await expect(row(page, 'SVC_GREETING', 'web')).toContainText('From the fleet', LOADED);
  await page.getByRole('button', { name: 'Override SVC_GREETING (web) on this device' }).click();
  const dialog = page.getByRole('dialog', { name: 'Override SVC_GREETING on this device' });
  await expect(dialog.getByLabel('Value')).toHaveValue('fleet web');
  await dialog.getByLabel('Value').fill('device web');
  await dialog.getByRole('button', { name: 'Override' }).click();
  await addVariable(page, 'ONLY_HERE', 'web only', 'web');
  const bar = page.getByRole('region', { name: 'Pending changes' });
  await expect(bar).toContainText('2 pending changes');
  await bar.getByRole('button', { name: 'Apply all changes' }).click();
  await expect(bar).toBeHidden();
  await expect(row(page, 'SVC_GREETING', 'web')).toContainText('overrides fleet value fleet web');
  await expect(row(page, 'ONLY_HERE', 'web')).toContainText('web only');
  const rows = await apiAs<V7<'device_service_environment_variable', 'name' | 'value'>>(
    request,
    owner,
    'GET',
    `/v7/device_service_environment_variable?$select=name,value&$orderby=name asc&$filter=${encodeURIComponent(`service_install/any(si:si/device eq ${device.id})`)}`,
  );
  expect(rows.d.map((r) => [r.name, r.value])).toEqual([
    ['ONLY_HERE', 'web only'],
    ['SVC_GREETING', 'device web'],
  ]);

  await page.goto(`/fleets/${fleetId}/envvars`);
  await page.getByRole('button', { name: 'Device overrides of SVC_GREETING (web)' }).click();
  const overrides = page.getByRole('dialog', { name: 'Devices overriding SVC_GREETING (web)' });
  await expect(overrides.getByRole('table', { name: 'Device overrides' })).toContainText('device web', LOADED);
  await expect(overrides.getByRole('table', { name: 'Device overrides' })).toContainText(`devsvc-${stamp}`);
});

test.describe('accessibility', () => {
  // axe is injected as a script tag, which the server's CSP would block.
  test.use({ bypassCSP: true });

  test('the variables pages, with staged rows, the bar and the dialog, pass axe and work from the keyboard', async ({ page, request }) => {
    const { owner, fleetId, deviceTypeId, stamp } = await newFleet(request, 'axe');
    await setFleetVar(request, owner, fleetId, 'FIRST', 'one');
    const device = await apiAs<{ id: number; uuid: string }>(request, owner, 'POST', '/v7/device', {
      belongs_to__application: fleetId,
      is_of__device_type: deviceTypeId,
      device_name: `axe-${stamp}`,
    });
    await signIn(page, owner.email);
    await page.goto(`/fleets/${fleetId}/envvars`);
    await expect(row(page, 'FIRST')).toBeVisible(LOADED);
    // From the keyboard: the add button opens the dialog, the form submits with Enter.
    await page.getByRole('button', { name: 'Add variable' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add variable' });
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('FROM_KEYBOARD');
    await page.keyboard.press('Tab');
    await page.keyboard.type('typed');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Name').press('Enter');
    await expect(dialog).toBeHidden();
    await expect(row(page, 'FROM_KEYBOARD')).toContainText('Added');
    await page.getByRole('button', { name: 'Delete FIRST', exact: true }).click();
    expect(await seriousViolations(page)).toEqual([]);

    page.once('dialog', (d) => void d.accept());
    await page.goto(`/devices/${device.uuid}/envvars`);
    await expect(row(page, 'FIRST')).toContainText('From the fleet', LOADED);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
