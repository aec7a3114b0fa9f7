import { expect, test } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { organizationWithFleet } from './support/fleets';
import { newEmail, signIn } from './support/users';

/*
 * Issue 11 item 11: with no reachable tile server (the e2e server's tile URL is a closed
 * port, and the browser has no outside network) the maps are not grey grids: the bundled
 * country map (Natural Earth 1:110m via world-atlas) is drawn, with no request leaving the
 * server's origin for it.
 */
test('the default map draws country shapes without any tile server', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const user = await registerApiUser(request, newEmail('basemap'));
  const { fleetId, deviceTypeId } = await organizationWithFleet(request, user, `Basemap ${stamp}`, `basemap_${stamp}`, 'raspberrypi4-64');
  const device = await apiAs<{ uuid: string; id: number }>(request, user, 'POST', '/v7/device', {
    belongs_to__application: fleetId,
    is_of__device_type: deviceTypeId,
    device_name: `lisbon-${stamp}`,
  });
  await apiAs(request, user, 'PATCH', `/v7/device(${device.id})`, { custom_latitude: '38.7223', custom_longitude: '-9.1393' });
  await signIn(page, user.email);

  await page.goto(`/fleets/${fleetId}/devices?lens=map`);
  const map = page.getByRole('region', { name: "Map of the fleet's devices" });
  await expect(map.getByTestId('map-marker')).toHaveCount(1);
  const countries = map.locator('path.flotilla-basemap-country');
  await expect.poll(() => countries.count()).toBeGreaterThan(150);
  // Shapes with real area on screen, filled (not a hairline grid).
  const box = await countries.first().boundingBox();
  expect(box!.width * box!.height).toBeGreaterThan(0);
  await expect(countries.first()).toHaveCSS('fill-opacity', '1');
  await page.screenshot({ path: 'e2e/.tmp/basemap-fleet-map.png' });
});
