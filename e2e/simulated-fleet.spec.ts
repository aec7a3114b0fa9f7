import type { ApiRow } from '@flotilla/model';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs, registerApiUser, type ApiUser } from './support/api';
import { watchPageProblems } from './support/csp';
import { deployRelease, newCommit } from './support/releases';
import { createProvisioningKey, simulateFleet, type Simulation } from './support/simulator';
import { newEmail, signIn } from './support/users';
import { devicesOnMap } from './support/map';
import { organizationWithFleet } from './support/fleets';
import { reloadUntil } from './support/settle';

/*
 * Issue 5 end to end with real (simulated) devices: packages/agent's simulator runs 20
 * virtual devices in the test process against the e2e server. They register with a
 * provisioning key, poll their target state, report state and keep a cloud link; the
 * dashboard shows them come online, a reboot from the device page drops the link and brings
 * it back, and pinning the fleet to a new release on the settings page updates them all.
 * The devices report locations, so they also appear on the fleet's Map lens (clusters and
 * markers; e2e/device-map.spec.ts covers the lens in depth).
 */

const COUNT = 20;
const DEVICE_TYPE = 'raspberrypi4-64';
const COMPOSITION = { version: '2.1', services: { main: { build: './main' } } };

type DeviceRow = Pick<ApiRow<'device'>, 'uuid' | 'device_name' | 'is_online' | 'overall_status' | 'is_running__release'>;

async function fleetDevices(request: APIRequestContext, user: ApiUser, fleetId: number): Promise<DeviceRow[]> {
  const res = await apiAs<{ d: DeviceRow[] }>(
    request,
    user,
    'GET',
    `/v7/device?$select=uuid,device_name,is_online,overall_status,is_running__release&$filter=belongs_to__application eq ${fleetId}`,
  );
  return res.d;
}

/** How many of the fleet's devices run `releaseId`. */
async function runningRelease(request: APIRequestContext, user: ApiUser, fleetId: number, releaseId: number): Promise<number> {
  return (await fleetDevices(request, user, fleetId)).filter((d) => d.is_running__release?.__id === releaseId).length;
}

test('20 simulated devices come online in the fleet table, one reboots from its page, and pinning a new release updates them all', async ({ page, request }) => {
  test.setTimeout(180_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('simadmin'));
  const { fleetId } = await organizationWithFleet(request, admin, `Simulated E2E ${stamp}`, `simulated_${stamp}`, DEVICE_TYPE);
  const provisioningKey = await createProvisioningKey(request, admin, fleetId);
  const first = newCommit();
  const firstId = await deployRelease(request, admin, fleetId, { commit: first, composition: COMPOSITION, services: [{ name: 'main' }], semver: '1.0.0' });
  // Pinned, so that deploying the second release later does not move the devices by itself.
  await apiAs(request, admin, 'PATCH', `/v7/application(${fleetId})`, { should_track_latest_release: false, should_be_running__release: firstId });

  await signIn(page, admin.email);
  await page.goto(`/fleets/${fleetId}`);
  const table = page.getByRole('table', { name: 'Devices' });
  const rows = table.locator('tbody tr');
  await expect(page.getByRole('region', { name: 'Device list' })).toContainText('This fleet has no devices yet.');

  let simulation: Simulation | undefined;
  try {
    // Offline 20 s on reboot: wide enough for a reload on a loaded machine to see the link down.
    simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: DEVICE_TYPE, count: COUNT, locations: true, rebootOfflineMs: [20_000, 20_000] });

    // All 20 register, open their cloud links, poll (heartbeat online), download the pinned
    // first release and run it: operational. (A device is briefly operational on its link
    // alone, before its first poll starts the download, so the release is part of the wait.)
    await expect
      .poll(
        async () =>
          (await fleetDevices(request, admin, fleetId)).filter((d) => d.overall_status === 'operational' && d.is_online && d.is_running__release?.__id === firstId)
            .length,
        { timeout: 40_000 },
      )
      .toBe(COUNT);
    await page.reload();
    await expect(rows).toHaveCount(COUNT);
    const counts = page.getByRole('group', { name: 'Devices per status' });
    await expect(counts.getByRole('button', { name: `All (${COUNT})` })).toBeVisible();
    await expect(counts.getByRole('button', { name: `Operational (${COUNT})` })).toBeVisible();
    await expect(counts.getByRole('button', { name: 'Configuring (0)' })).toBeVisible();
    await expect(rows.filter({ hasText: 'Operational' })).toHaveCount(COUNT);
    // Each runs the first release and reports the simulator's OS.
    await expect.poll(() => runningRelease(request, admin, fleetId, firstId), { timeout: 30_000 }).toBe(COUNT);
    await page.reload();
    await expect(rows.filter({ hasText: first.slice(0, 7) })).toHaveCount(COUNT);
    await expect(rows.first()).toContainText('balenaOS 6.0.10');

    // The same 20 on the Map lens: every device drawn, as a marker or inside a cluster.
    const lenses = page.getByRole('group', { name: 'Device view' });
    await lenses.getByRole('button', { name: 'Map' }).click();
    const map = page.getByRole('region', { name: "Map of the fleet's devices" });
    await expect.poll(() => devicesOnMap(map), { timeout: 15_000 }).toBe(COUNT);
    await lenses.getByRole('button', { name: 'Table' }).click();
    await expect(rows).toHaveCount(COUNT);

    // One device's page: reboot from the actions menu; its link drops, then comes back.
    const target = (await fleetDevices(request, admin, fleetId))[0]!;
    // By its link's target: two of 20 random adjective-noun names can be the same.
    await rows.locator(`a[href="/devices/${target.uuid}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/devices/${target.uuid}$`));
    const details = page.getByRole('region', { name: 'Device details' });
    await expect(details).toContainText(/Cloud link\s*Connected/);
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Reboot' }).click();
    // Issue 11: a single device's reboot asks first.
    await page.getByRole('dialog', { name: `Reboot ${target.device_name}?` }).getByRole('button', { name: 'Reboot' }).click();
    await expect(page.getByText('Reboot: request sent to the device')).toBeVisible();
    // The device page polls once a minute; reloading shows the server's view at once.
    await reloadUntil(page, details, (d) => expect(d).toContainText(/Cloud link\s*Disconnected/, { timeout: 2_000 }), 25_000);
    expect((await fleetDevices(request, admin, fleetId)).find((d) => d.uuid === target.uuid)?.is_online).toBe(false);
    await reloadUntil(page, details, (d) => expect(d).toContainText(/Cloud link\s*Connected/, { timeout: 2_000 }));
    await expect(details).toContainText(/Status\s*Operational/);

    // A second release: the pinned fleet keeps the devices on the first one.
    const second = newCommit();
    const secondId = await deployRelease(request, admin, fleetId, { commit: second, composition: COMPOSITION, services: [{ name: 'main' }], semver: '1.1.0' });
    expect(await runningRelease(request, admin, fleetId, firstId)).toBe(COUNT);
    const probe = simulation.devices[0]!;
    const targetOf = async () => {
      const res = await request.get(`/device/v3/${probe.uuid}/state`, { headers: { Authorization: `Bearer ${probe.opts.deviceApiKey}` } });
      expect(res.status()).toBe(200);
      return res.text();
    };
    const pinnedTarget = await targetOf();
    expect(pinnedTarget).toContain(first);
    expect(pinnedTarget).not.toContain(second);

    // Pin the fleet to it on the settings page: every device downloads and runs it.
    await page.goto(`/fleets/${fleetId}/settings`);
    const releaseSelect = page.getByRole('combobox', { name: 'Default release' });
    await expect(releaseSelect).toHaveValue(first);
    await releaseSelect.selectOption({ value: second });
    await page.getByRole('region', { name: 'Default release' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('successfully pinned to release')).toBeVisible();
    expect(await targetOf()).toContain(second);
    await expect.poll(() => runningRelease(request, admin, fleetId, secondId), { timeout: 40_000 }).toBe(COUNT);
    await page.goto(`/fleets/${fleetId}/devices`);
    await expect(rows).toHaveCount(COUNT);
    await expect(rows.filter({ hasText: `1.1.0 (${second.slice(0, 7)})` })).toHaveCount(COUNT);
    await expect(page.getByRole('group', { name: 'Devices per status' }).getByRole('button', { name: `Operational (${COUNT})` })).toBeVisible({ timeout: 20_000 });
    const stats = simulation.stats();
    expect(stats.linked).toBe(COUNT);
  } finally {
    await simulation?.stop();
  }

  // The map's tile requests go to the e2e server's closed tile port (offline maps): refused, as intended.
  expect(problems.errors.filter((e) => !/Failed to load resource: net::ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});
