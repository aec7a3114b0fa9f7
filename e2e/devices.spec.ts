import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { newEmail, signIn } from './support/users';

/*
 * Issue 5 dashboard journey (spec 2 §2 fleet device table and device page, §4 action
 * availability and batch messages, §5 confirm by typing the count): devices registered with
 * a provisioning key and reporting state appear in the fleet's table with per-status counts
 * and filters; the device page renames, saves a note, shows the reported facts and metrics,
 * and refuses identify for a device without a cloud link.
 */

interface Registered {
  id: number;
  uuid: string;
  api_key: string;
}

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

async function registerDevice(request: APIRequestContext, provisioningKey: string, fleetId: number, deviceType: string): Promise<Registered> {
  const res = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid: hex(32), device_type: deviceType, api_key: hex(32), supervisor_version: '16.1.0', os_version: 'balenaOS 5.3.0', os_variant: 'prod' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Registered;
}

async function fleetWithDevices(request: APIRequestContext, admin: ApiUser, stamp: string) {
  const org = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: `Devices E2E ${stamp}` });
  const types = await apiAs<V7<'device_type', 'id'>>(request, admin, 'GET', `/v7/device_type?$select=id&$filter=${encodeURIComponent("slug eq 'raspberrypi4-64'")}`);
  const fleet = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/application', {
    app_name: `devices_${stamp}`,
    organization: org.id,
    is_for__device_type: types.d[0]!.id,
    is_of__class: 'fleet',
  });
  const keyRes = await request.post('/api-key/v2/', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { actorType: 'application', actorTypeId: fleet.id, roles: ['provisioning-api-key'], name: 'e2e' },
  });
  expect(keyRes.status(), await keyRes.text()).toBeLessThan(300);
  const provisioningKey = (await keyRes.json()) as string;
  const devices = [
    await registerDevice(request, provisioningKey, fleet.id, 'raspberrypi4-64'),
    await registerDevice(request, provisioningKey, fleet.id, 'raspberrypi4-64'),
    // No LED on this type (identify is refused for it once online).
    await registerDevice(request, provisioningKey, fleet.id, 'generic-aarch64'),
  ];
  return { fleetId: fleet.id, devices, provisioningKey };
}

test('registered devices appear in the fleet table with counts, filters and batch actions; the device page renames, notes and refuses identify offline', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('devadmin'));
  const { fleetId, devices } = await fleetWithDevices(request, admin, stamp);
  const [a, b, c] = devices as [Registered, Registered, Registered];

  // Device C reports its state with its own key: addresses, OS and metrics.
  const report = await request.patch('/device/v3/state', {
    headers: { Authorization: `Bearer ${c.api_key}` },
    data: {
      [c.uuid]: {
        os_version: 'balenaOS 6.0.1',
        ip_address: '192.168.1.23 10.0.0.4',
        mac_address: 'aa:bb:cc:dd:ee:ff',
        cpu_usage: 42,
        cpu_temp: 55,
        memory_usage: 900,
        memory_total: 1000,
        storage_usage: 700,
        storage_total: 1000,
      },
    },
  });
  expect(report.status(), await report.text()).toBe(200);
  // Device A is deactivated by the operator: its overall status becomes inactive.
  await apiAs(request, admin, 'PATCH', `/v7/device(${a.id})`, { is_active: false });
  const named = await apiAs<V7<'device', 'id' | 'device_name'>>(
    request,
    admin,
    'GET',
    `/v7/device?$select=id,device_name&$filter=belongs_to__application eq ${fleetId}`,
  );
  const nameOf = (d: Registered) => named.d.find((x) => x.id === d.id)!.device_name;

  // The fleet summary shows the table: every device, counts per status.
  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}`);
  const table = page.getByRole('table', { name: 'Devices' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  const counts = page.getByRole('group', { name: 'Devices per status' });
  await expect(counts.getByRole('button', { name: 'All (3)' })).toBeVisible();
  await expect(counts.getByRole('button', { name: 'Configuring (2)' })).toBeVisible();
  await expect(counts.getByRole('button', { name: 'Inactive (1)' })).toBeVisible();
  await expect(counts.getByRole('button', { name: 'Operational (0)' })).toBeVisible();
  const rowC = rows.filter({ hasText: nameOf(c) });
  await expect(rowC).toContainText('balenaOS 6.0.1');
  await expect(rowC).toContainText('192.168.1.23, 10.0.0.4');
  await expect(rowC).toContainText('Generic AARCH64');
  await expect(rows.filter({ hasText: nameOf(a) })).toContainText('Inactive');

  // Filters: a status count, the device type, the name search; each narrows the table.
  await counts.getByRole('button', { name: 'Inactive (1)' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(nameOf(a));
  await expect(page).toHaveURL(/status=inactive/);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(3);
  await page.getByRole('combobox', { name: 'Device type' }).click();
  await page.getByRole('option', { name: 'Generic AARCH64' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(nameOf(c));
  await page.getByRole('button', { name: 'Clear filters' }).click();
  // The unfiltered page first, so the search's one row is not the type filter's stale one.
  await expect(rows).toHaveCount(3);
  await expect(page).not.toHaveURL(/device_type=/);
  await page.getByLabel('Search devices').fill(nameOf(b).toUpperCase());
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(nameOf(b));
  await page.getByLabel('Search devices').fill('');
  await expect(rows).toHaveCount(3);

  // The release page's link: /fleets/{id}/devices?is_running__release= filters the same table.
  await page.goto(`/fleets/${fleetId}/devices?is_running__release=2147483`);
  await expect(page.getByRole('tab', { name: 'Devices' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No devices match these filters.')).toBeVisible();
  await expect(rows).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(3);

  // Batch actions: nothing selected says so; offline devices refuse every reboot (first error).
  const batch = page.getByRole('button', { name: 'Actions' });
  await batch.click();
  await page.getByRole('menuitem', { name: 'Identify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'No selected' })).toBeVisible();
  await page.getByRole('checkbox', { name: `Select ${nameOf(b)}` }).check();
  await page.getByRole('checkbox', { name: `Select ${nameOf(c)}` }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await batch.click();
  await page.getByRole('menuitem', { name: 'Reboot' }).click();
  const confirmReboot = page.getByRole('dialog', { name: 'Reboot 2 devices' });
  await expect(confirmReboot).toContainText(nameOf(b));
  await expect(confirmReboot.getByRole('button', { name: 'Reboot' })).toBeDisabled();
  await confirmReboot.getByLabel('Type 2 to confirm').fill('2');
  await confirmReboot.getByRole('button', { name: 'Reboot' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'device must be online' })).toBeVisible();

  // The device page: summary card fields, metrics, rename, note, identify refused offline.
  await rowC.getByRole('link', { name: nameOf(c) }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${c.uuid}$`));
  await expect(page.getByRole('heading', { level: 1, name: nameOf(c) })).toBeVisible();
  const details = page.getByRole('region', { name: 'Device details' });
  await expect(details).toContainText(c.uuid);
  await expect(details).toContainText('Generic AARCH64');
  await expect(details).toContainText('balenaOS 6.0.1');
  await expect(details).toContainText('16.1.0');
  await expect(details).toContainText('aa:bb:cc:dd:ee:ff');
  await expect(details).toContainText('Disconnected');
  await expect(details.getByRole('link', { name: `devices_${stamp}` })).toHaveAttribute('href', `/fleets/${fleetId}`);
  const metrics = page.getByRole('region', { name: 'Metrics' });
  await expect(metrics.getByRole('progressbar', { name: 'Memory' })).toHaveAttribute('aria-valuenow', '90');
  await expect(metrics.getByRole('progressbar', { name: 'Storage' })).toHaveAttribute('aria-valuenow', '70');
  await expect(metrics.getByRole('progressbar', { name: 'CPU' })).toHaveAttribute('aria-valuenow', '42');
  await expect(metrics).toContainText('55 °C');

  await details.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename device' });
  await expect(rename.getByLabel('Device name')).toHaveValue(nameOf(c));
  await rename.getByLabel('Device name').fill(`edge-${stamp}`);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `edge-${stamp}` })).toBeVisible();

  // The note is edited inline (a click on 'Add a note', or on the note) and shown as markdown.
  await details.getByRole('button', { name: 'Add a note' }).click();
  await page.getByLabel('Note', { exact: true }).fill('Mounted on the north mast');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await page.reload();
  await expect(details.getByTestId('device-note-view')).toHaveText('Mounted on the north mast');
  await details.getByRole('button', { name: 'Edit note' }).click();
  await expect(page.getByLabel('Note', { exact: true })).toHaveValue('Mounted on the north mast');
  await expect(page.getByRole('heading', { level: 1, name: `edge-${stamp}` })).toBeVisible();

  await page.getByRole('button', { name: 'Actions' }).click();
  const identify = page.getByRole('menuitem', { name: /Identify/ });
  await expect(identify).toContainText('device must be online');
  await expect(page.getByRole('menuitem', { name: /Reboot/ })).toContainText('device must be online');
  // Disabled items stay focusable and explain themselves when chosen.
  await expect(identify).toBeDisabled();
  await identify.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'device must be online' })).toBeVisible();
  // The server refuses it too, with balena's answer: no cloud link.
  const blink = await request.post('/supervisor/v1/blink', { headers: { Authorization: `Bearer ${admin.token}` }, data: { uuid: c.uuid } });
  expect(blink.status()).toBe(404);
  expect(await blink.text()).toContain('No online device(s) found');

  // Batch delete, confirmed by typing the count: the table keeps the other devices.
  await page.goto(`/fleets/${fleetId}/devices`);
  await expect(rows).toHaveCount(3);
  await page.getByRole('checkbox', { name: `Select ${nameOf(a)}` }).check();
  await page.getByRole('checkbox', { name: `Select ${nameOf(b)}` }).check();
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirmDelete = page.getByRole('dialog', { name: 'Delete 2 devices' });
  await confirmDelete.getByLabel('Type 2 to confirm').fill('2');
  await confirmDelete.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'operation completed successfully' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`edge-${stamp}`);

  // An unknown device goes to / with 'Device not found'.
  await page.goto(`/devices/${hex(32)}`);
  await expect(page.getByRole('alert').filter({ hasText: 'Device not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/fleets$/);

  // Only the refused requests (400 from the action endpoints) may be logged.
  expect(problems.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
});

test('a fleet of 130 devices pages through the table; a page of 250 renders only the rows in view and scrolls to the rest', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('devpages'));
  const { fleetId, provisioningKey } = await fleetWithDevices(request, admin, stamp);
  const TOTAL = 130;
  for (let i = 3; i < TOTAL; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, TOTAL - i) }, () => registerDevice(request, provisioningKey, fleetId, 'raspberrypi4-64')));
  }

  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}/devices`);
  const table = page.getByRole('table', { name: 'Devices' });
  const rows = table.locator('tbody tr[data-row]');
  await expect(rows).toHaveCount(50);
  await expect(page.getByText(`1–50 of ${TOTAL}`)).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText(`51–100 of ${TOTAL}`)).toBeVisible();

  // 250 per page: all 130 on one page, but only a window of them is in the document.
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('250');
  await expect(page).toHaveURL(/[?&]size=250/);
  await expect(page.getByText(`1–${TOTAL} of ${TOTAL}`)).toBeVisible();
  await expect(table).toHaveAttribute('aria-rowcount', String(TOTAL + 1));
  const rendered = await rows.count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(60);
  // The oldest device (last in the order) is not rendered until the list is scrolled to it.
  const devices = await apiAs<V7<'device', 'device_name' | 'uuid'>>(
    request,
    admin,
    'GET',
    `/v7/device?$select=device_name,uuid&$filter=belongs_to__application eq ${fleetId}&$orderby=last_connectivity_event desc,id desc`,
  );
  // Its link by name and address: generated names may repeat among 130 devices, uuids do not.
  const last = devices.d.at(-1)!;
  const lastLink = table.locator(`a[href="/devices/${last.uuid}"]`, { hasText: last.device_name });
  await expect(lastLink).toHaveCount(0);
  await table.evaluate((el) => el.parentElement!.scrollTo(0, el.parentElement!.scrollHeight));
  await expect(lastLink).toBeVisible();
  await expect(table.locator(`tr[aria-rowindex="${TOTAL + 1}"]`)).toBeVisible();
  expect(problems.errors).toEqual([]);
});
