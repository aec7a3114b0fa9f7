import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { createApplication } from './support/fleets';
import { E2E_PORTS } from './support/ports';
import { useBillingNode } from './support/second-node';
import { newEmail, signIn } from './support/users';

/*
 * Issue 18: a device beyond the free allowance on the free plan is frozen (`device.is_frozen`).
 * The fleet's device table and the device summary show a 'Frozen' badge whose tooltip says why
 * and what to do, and the device's actions are disabled with the reason. The billing-on pages
 * are on the second node (billing on); the devices are made through the main server (billing
 * off, so nothing refuses the eleventh), on the same database.
 */

test.use({ bypassCSP: true }); // axe is injected as an inline script
const BILLING_URL = `http://127.0.0.1:${E2E_PORTS.server2}`;
const MAIN_URL = `http://127.0.0.1:${E2E_PORTS.server}`;

test.describe('frozen devices (billing on)', () => {
  test.use({ baseURL: BILLING_URL });
  useBillingNode();

  test('the newest device beyond the free allowance shows the Frozen badge with its reason, and its actions are disabled', async ({ page, request }) => {
    test.setTimeout(180_000);
    const admin = await registerApiUser(request, newEmail('frozen_devices'));
    const { id: orgId } = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: `Frozen devices ${Date.now().toString(36)}` });
    const fleetId = await createApplication(request, admin, orgId, `frozen${Date.now().toString(36)}`, 'fleet');
    const types = await apiAs<{ d: { id: number }[] }>(request, admin, 'GET', `/v7/application(${fleetId})?$select=is_for__device_type`);
    const deviceType = (types.d[0] as unknown as { is_for__device_type: { __id: number } }).is_for__device_type.__id;
    const uuids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const uuid = randomBytes(16).toString('hex');
      const res = await request.post(`${MAIN_URL}/v7/device`, {
        headers: { Authorization: `Bearer ${admin.token}` },
        data: { uuid, device_name: `frozen-${String(i).padStart(2, '0')}`, belongs_to__application: fleetId, is_of__device_type: deviceType },
      });
      expect(res.status(), await res.text()).toBe(201);
      uuids.push(uuid);
    }
    // The server says which one (the newest).
    const frozen = await apiAs<{ d: { uuid: string }[] }>(request, admin, 'GET', `/v7/device?$select=uuid&$filter=belongs_to__application eq ${fleetId} and is_frozen eq true`);
    expect(frozen.d.map((d) => d.uuid)).toEqual([uuids[10]]);

    await signIn(page, admin.email);
    await page.goto(`/fleets/${fleetId}`);
    const badge = page.getByTestId('device-frozen-badge');
    await expect(badge).toHaveCount(1, { timeout: 60_000 });
    await expect(page.getByRole('row', { name: /frozen-10/ }).getByTestId('device-frozen-badge')).toBeVisible();
    await badge.focus();
    await expect(page.getByRole('tooltip')).toContainText('Free plan limits exceeded', { timeout: 30_000 });
    await expect(page.getByRole('tooltip')).toContainText('Remove devices or upgrade the plan');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`/devices/${uuids[10]}`);
    await expect(page.getByTestId('device-frozen-badge')).toBeVisible({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Actions' }).click();
    const menu = page.getByRole('menu', { name: 'Actions' });
    await expect(menu.getByRole('menuitem').first()).toContainText('device is frozen (free plan limits exceeded)');
    await page.keyboard.press('Escape');

    // An older device is not frozen.
    await page.goto(`/devices/${uuids[0]}`);
    await expect(page.getByRole('heading', { level: 1, name: 'frozen-00' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('device-frozen-badge')).toHaveCount(0);
  });
});
