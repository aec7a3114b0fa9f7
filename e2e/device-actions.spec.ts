import { rm, writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiAs, registerApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { startEngineDevice, type EngineDevice } from './support/engine-device';
import { organizationWithFleet } from './support/fleets';
import { createProvisioningKey, simulateFleet } from './support/simulator';
import { startSecondNode, type SecondNode } from './support/second-node';
import { newEmail, signIn, submitLogin } from './support/users';

/*
 * Issue 15 item 4: /devices/{uuid}/actions. A real agent on the run's Podman engine restarts
 * its service when asked from the page (served by a second server process: the action
 * crosses the bus to the process holding the device's link) (the container's start time changes, the services
 * card shows it Running again); reboot asks first; an offline simulated device shows each
 * action's disabled reason.
 */

const devices: EngineDevice[] = [];
let node: SecondNode | undefined;
test.afterAll(async () => {
  for (const d of devices.splice(0)) await d.stop();
  await node?.stop();
});

test('restart services of a real container from the actions page: the service comes back; the update lock asks to force; reboot asks for confirmation', async ({ page, request }) => {
  test.setTimeout(180_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('devactions'));
  const { fleetId } = await organizationWithFleet(request, owner, `Actions E2E ${stamp}`, `actions_${stamp}`, 'raspberrypi3');
  const device = await startEngineDevice(request, owner, fleetId, {
    deviceType: 'raspberrypi3',
    services: { main: 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done' },
  });
  devices.push(device);
  const [row] = (await apiAs<V7<'device', 'device_name'>>(request, owner, 'GET', `/v7/device?$select=device_name&$filter=${encodeURIComponent(`uuid eq '${device.uuid}'`)}`)).d;
  const before = await device.startedAt('main');
  expect(before, device.output()).toBeTruthy();

  // The browser on a second server process; the agent's cloud link is on the first.
  node = await startSecondNode();
  await page.goto(`${node.baseURL}/login`);
  await submitLogin(page, owner.email);
  await expect(page).toHaveURL(new RegExp(`^${node.baseURL}/fleets$`));
  await page.goto(`${node.baseURL}/devices/${device.uuid}`);
  // The tabs in spec 2 §2's order; the owner (administrator) sees diagnostics.
  const tabs = page.getByRole('tablist', { name: 'Device sections' });
  await expect(tabs.getByRole('tab')).toHaveText(['Summary', 'Variables', 'Configuration', 'Actions', 'Settings', 'Location', 'Diagnostics']);
  await tabs.getByRole('tab', { name: 'Actions' }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${device.uuid}/actions$`));
  const actions = page.getByRole('region', { name: 'Device actions' });
  for (const name of ['Identify', 'Restart services', 'Reboot', 'Shutdown', 'Purge data', 'Delete']) {
    await expect(actions.getByRole('region', { name })).toBeVisible();
    await expect(actions.getByRole('region', { name }).getByRole('button', { name })).toBeEnabled();
  }
  await expect(actions.getByRole('region', { name: 'Restart services' })).toContainText('Restart every service');

  // Reboot asks first; cancelling sends nothing.
  await actions.getByRole('button', { name: 'Reboot' }).click();
  const confirm = page.getByRole('dialog', { name: `Reboot ${row!.device_name}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  // Restart services: the agent restarts the real container.
  await actions.getByRole('button', { name: 'Restart services' }).click();
  await expect(page.getByText('Restart services: sending to the device…')).toBeVisible();
  await expect(page.getByText('Restart services: request sent to the device')).toBeVisible();
  await expect.poll(async () => {
    const now = await device.startedAt('main');
    return now !== undefined && now !== before;
  }, { timeout: 60_000, message: 'the container was not restarted' }).toBe(true);

  // With the device's update lock set, the restart is refused (423): the page says so and
  // offers to force it; forced, the container restarts again.
  const restarted = await device.startedAt('main');
  await writeFile(device.lockPath, '');
  await actions.getByRole('button', { name: 'Restart services' }).click();
  const lockDialog = page.getByRole('dialog', { name: 'action blocked by update lock' });
  await expect(lockDialog).toContainText("The device's update lock is set, so Restart services did not run");
  expect(await device.startedAt('main')).toBe(restarted);
  await lockDialog.getByRole('button', { name: 'Force Restart services' }).click();
  await expect(lockDialog).toBeHidden();
  await expect.poll(async () => {
    const now = await device.startedAt('main');
    return now !== undefined && now !== restarted;
  }, { timeout: 60_000, message: 'the forced restart did not restart the container' }).toBe(true);
  await rm(device.lockPath, { force: true });

  // The services card shows the service Running again.
  await page.getByRole('tablist', { name: 'Device sections' }).getByRole('tab', { name: 'Summary' }).click();
  await expect(page.getByRole('region', { name: 'Services' }).getByRole('listitem', { name: 'main' })).toContainText('Running', { timeout: 60_000 });
  // The refused (423) request is the one expected console line.
  expect(problems.errors.filter((e) => !e.includes('status of 423 (Locked)'))).toEqual([]);
});

test('an offline simulated device: each action says why it is disabled; delete stays available', async ({ page, request }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('devactionsoff'));
  const { fleetId } = await organizationWithFleet(request, owner, `Actions offline E2E ${stamp}`, `actionsoff_${stamp}`, 'generic-amd64');
  const provisioningKey = await createProvisioningKey(request, owner, fleetId);
  const simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: 'generic-amd64', count: 1 });
  const uuid = simulation.devices[0]!.uuid;
  const online = async () =>
    (await apiAs<V7<'device', 'is_online'>>(request, owner, 'GET', `/v7/device?$select=is_online&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`)).d[0]?.is_online;
  await expect.poll(online, { timeout: 30_000 }).toBe(true);
  await signIn(page, owner.email);
  await page.goto(`/devices/${uuid}/actions`);
  const actions = page.getByRole('region', { name: 'Device actions' });
  // Online, without an LED: identify says so, the rest are available.
  await expect(actions.getByRole('region', { name: 'Identify' })).toContainText('Device does not support blinking');
  await expect(actions.getByRole('button', { name: 'Reboot' })).toBeEnabled();

  await simulation.stop();
  await expect.poll(online, { timeout: 30_000 }).toBe(false);
  await page.reload();
  for (const name of ['Identify', 'Restart services', 'Reboot', 'Shutdown', 'Purge data']) {
    const action = actions.getByRole('region', { name });
    await expect(action.getByRole('button', { name })).toBeDisabled();
    await expect(action).toContainText('device must be online');
  }
  await expect(actions.getByRole('button', { name: 'Delete' })).toBeEnabled();
});
