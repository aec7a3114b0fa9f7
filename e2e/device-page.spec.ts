import { expect, test } from '@playwright/test';
import { apiAs, registerApiUser, type V7 } from './support/api';
import { organizationWithFleet } from './support/fleets';
import { createProvisioningKey, simulateFleet, type Simulation } from './support/simulator';
import { newEmail, signIn } from './support/users';

/*
 * Issue 11 items 4 and 5 on the device page of a simulated, online device: Reboot, Shutdown
 * and Purge data ask before they fire (purge: type the device name, spec 2 §5), and "Last
 * seen" is relative, live while online, with the exact time (spec 3 §9's format) on hover.
 */

const DEVICE_TYPE = 'raspberrypi4-64';
/** Spec 3 §9: MMM do yyyy, h:mm a. */
const DATE_FORMAT = /^[A-Z][a-z]{2} \d{1,2}(st|nd|rd|th) \d{4}, \d{1,2}:\d{2} (AM|PM)$/;

test('single-device reboot, shutdown and purge ask first; last seen is relative and live', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('devpage'));
  const { fleetId } = await organizationWithFleet(request, admin, `Device page E2E ${stamp}`, `devpage_${stamp}`, DEVICE_TYPE);
  const provisioningKey = await createProvisioningKey(request, admin, fleetId);
  const lines: string[] = [];
  let simulation: Simulation | undefined;
  try {
    simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: DEVICE_TYPE, count: 1, log: (m) => lines.push(m) });
    const uuid = simulation.devices[0]!.uuid;
    let name = '';
    await expect
      .poll(
        async () => {
          const res = await apiAs<V7<'device', 'device_name' | 'is_online' | 'overall_status'>>(
            request,
            admin,
            'GET',
            `/v7/device?$select=device_name,is_online,overall_status&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`,
          );
          name = res.d[0]?.device_name ?? '';
          return res.d[0]?.is_online === true && res.d[0].overall_status !== 'configuring';
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    // The browser's clock is under the test's control from here on (it runs on by itself).
    await page.clock.install();
    await signIn(page, admin.email);
    await page.goto(`/devices/${uuid}`);
    const details = page.getByRole('region', { name: 'Device details' });
    await expect(details).toContainText(/Cloud link\s*Connected/);

    // Last seen: relative, the exact time in the one date format on hover (its title).
    const lastSeen = details.getByTestId('device-last-seen');
    await expect(lastSeen).toHaveText('a few seconds ago');
    const firstTitle = (await lastSeen.getAttribute('title')) ?? '';
    expect(firstTitle).toMatch(DATE_FORMAT);
    // Ten minutes on, the device is still online: still "a few seconds ago", at a later time.
    await page.clock.fastForward('10:00');
    await expect(lastSeen).toHaveText('a few seconds ago');
    await expect.poll(async () => (await lastSeen.getAttribute('title')) !== firstTitle).toBe(true);
    expect(await lastSeen.getAttribute('title')).toMatch(DATE_FORMAT);

    // The fleet's device table says the same.
    await page.goto(`/fleets/${fleetId}/devices`);
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row.getByTestId('device-last-seen')).toHaveText('a few seconds ago');
    await expect(row.getByTestId('device-last-seen')).toHaveAttribute('title', DATE_FORMAT);

    await page.goto(`/devices/${uuid}`);
    const actions = page.getByRole('button', { name: 'Actions' });

    // Reboot asks; cancelling sends nothing.
    await actions.click();
    await page.getByRole('menuitem', { name: 'Reboot' }).click();
    const reboot = page.getByRole('dialog', { name: `Reboot ${name}?` });
    await expect(reboot).toBeVisible();
    await reboot.getByRole('button', { name: 'Cancel' }).click();
    await expect(reboot).toBeHidden();

    // Shutdown asks; cancelling sends nothing.
    await actions.click();
    await page.getByRole('menuitem', { name: 'Shutdown' }).click();
    const shutdown = page.getByRole('dialog', { name: `Shut down ${name}?` });
    await expect(shutdown).toBeVisible();
    await shutdown.getByRole('button', { name: 'Cancel' }).click();
    await expect(shutdown).toBeHidden();

    // Purge asks for the device's name, typed (paste blocked); then it is sent.
    await actions.click();
    // An item the device cannot take now (offline, updating) says why instead of asking; the
    // device must be able to take it here, so wait for that first (a flap under load passes).
    const purgeItem = page.getByRole('menuitem', { name: 'Purge data' });
    await expect(purgeItem).not.toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
    await purgeItem.click();
    const purge = page.getByRole('dialog', { name: `Purge data of ${name}` });
    const submit = purge.getByRole('button', { name: 'Purge data' });
    await expect(submit).toBeDisabled();
    await purge.getByLabel(`Type ${name} to confirm`).fill(name.slice(0, -1));
    await expect(submit).toBeDisabled();
    await expect(page.getByText('request sent to the device')).toBeHidden();
    await purge.getByLabel(`Type ${name} to confirm`).fill(name);
    await submit.click();
    await expect(page.getByText('Purge data: request sent to the device')).toBeVisible();

    // Confirming a reboot sends it.
    await actions.click();
    await page.getByRole('menuitem', { name: 'Reboot' }).click();
    await page.getByRole('dialog', { name: `Reboot ${name}?` }).getByRole('button', { name: 'Reboot' }).click();
    await expect(page.getByText('Reboot: request sent to the device')).toBeVisible();
  } finally {
    await simulation?.stop();
  }
});
