import { expect, test, type Page } from '@playwright/test';
import { apiAs, registerApiUser, type V7 } from './support/api';
import { organizationWithFleet } from './support/fleets';
import { PLATFORM_ADMIN } from './support/outbox';
import { settleAfter } from './support/settle';
import { deployRelease, newCommit } from './support/releases';
import { createProvisioningKey, simulateFleet, type Simulation } from './support/simulator';
import { newEmail, signIn, submitLogin } from './support/users';

/*
 * Issue 11 item 3: no page of the app is wider than the viewport at 1280 and 1440 px (the
 * device page's Services card once pushed the page to 1655 px). Every main page is visited
 * with real content: a fleet with a release and a simulated device running its services.
 */

const DEVICE_TYPE = 'raspberrypi4-64';
const WIDTHS = [1280, 1440];

/** Waits for the page's content to settle, then the document's width against the viewport. */
async function expectNoHorizontalOverflow(page: Page, path: string, width: number, ready: () => Promise<void>): Promise<void> {
  // Lazy cards (services, tags) land after the first paint.
  await settleAfter(page, async () => {
    await page.goto(path);
    await ready();
  });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${path} at ${width} px is ${scrollWidth} px wide`).toBeLessThanOrEqual(width);
}

test('every main page fits the viewport at 1280 and 1440 px', async ({ page, request }) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('layout'));
  const { fleetId } = await organizationWithFleet(request, admin, `Layout E2E ${stamp}`, `layout_${stamp}`, DEVICE_TYPE);
  const orgs = await apiAs<V7<'organization', 'id'>>(request, admin, 'GET', `/v7/organization?$select=id&$filter=${encodeURIComponent(`name eq 'Layout E2E ${stamp}'`)}`);
  const orgId = orgs.d[0]!.id;
  // Three services, so each row carries Start, Stop and Restart.
  const services = ['main', 'frontend-with-a-long-name', 'metrics'];
  const releaseId = await deployRelease(request, admin, fleetId, {
    commit: newCommit(),
    composition: { version: '2.1', services: Object.fromEntries(services.map((s) => [s, { build: `./${s}` }])) },
    services: services.map((name) => ({ name })),
    semver: '1.0.0',
    tags: { environment: 'production' },
  });
  await apiAs(request, admin, 'PATCH', `/v7/application(${fleetId})`, { should_track_latest_release: false, should_be_running__release: releaseId });
  const team = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/team', { name: `Layout team ${stamp}`, belongs_to__organization: orgId });
  const provisioningKey = await createProvisioningKey(request, admin, fleetId);

  let simulation: Simulation | undefined;
  try {
    simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: DEVICE_TYPE, count: 1 });
    const uuid = simulation.devices[0]!.uuid;
    let deviceName = '';
    await expect
      .poll(
        async () => {
          const res = await apiAs<V7<'device', 'device_name' | 'is_running__release'>>(
            request,
            admin,
            'GET',
            `/v7/device?$select=device_name,is_running__release&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`,
          );
          deviceName = res.d[0]?.device_name ?? '';
          return res.d[0]?.is_running__release?.__id === releaseId;
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    await signIn(page, admin.email);
    const main = page.locator('main');
    const visible = (text: string | RegExp) => async () => {
      await expect(main.getByText(text).first()).toBeVisible();
    };
    const heading = async () => {
      await expect(page.getByRole('heading').first()).toBeVisible();
    };
    const pages: [string, () => Promise<void>][] = [
      ['/fleets', visible(`layout_${stamp}`)],
      [`/fleets/${fleetId}`, visible(`layout_${stamp}`)],
      [`/fleets/${fleetId}/devices`, visible(deviceName)],
      [
        `/devices/${uuid}`,
        async () => {
          await expect(page.getByRole('region', { name: 'Services' }).getByRole('button', { name: 'Restart metrics', exact: true })).toBeVisible();
        },
      ],
      [`/devices/${uuid}/settings`, visible(deviceName)],
      [`/devices/${uuid}/actions`, visible(deviceName)],
      [`/devices/${uuid}/diagnostics`, visible(deviceName)],
      [`/devices/${uuid}/location`, visible(deviceName)],
      [`/devices/${uuid}/config`, visible('What this device gets')],
      [`/fleets/${fleetId}/releases`, visible('1.0.0')],
      [`/fleets/${fleetId}/releases/${releaseId}/summary`, visible('1.0.0')],
      [`/fleets/${fleetId}/releases/${releaseId}/settings`, visible('1.0.0')],
      [`/fleets/${fleetId}/settings`, visible(`layout_${stamp}`)],
      [`/fleets/${fleetId}/config`, visible('Custom configuration')],
      [`/fleets/${fleetId}/api-keys`, visible(`layout_${stamp}`)],
      [`/fleets/${fleetId}/members`, visible(`layout_${stamp}`)],
      [`/fleets/${fleetId}/teams`, visible(`layout_${stamp}`)],
      ['/orgs', visible(`Layout E2E ${stamp}`)],
      [`/orgs/${orgId}`, visible(`Layout E2E ${stamp}`)],
      [`/orgs/${orgId}/members`, heading],
      [`/orgs/${orgId}/teams`, visible(`Layout team ${stamp}`)],
      [`/orgs/${orgId}/teams/${team.id}`, visible(`Layout team ${stamp}`)],
      [`/orgs/${orgId}/billing`, heading],
      ['/preferences', heading],
      ['/preferences/sshkeys', heading],
      ['/preferences/access-tokens', heading],
      ['/preferences/2fa', heading],
    ];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const [path, ready] of pages) await expectNoHorizontalOverflow(page, path, width, ready);
    }

    // The staff area, as the platform administrator.
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await page.goto('/login');
    await submitLogin(page, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password);
    await expect(page).toHaveURL(/\/fleets$/);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalOverflow(page, '/admin', width, heading);
    }
  } finally {
    await simulation?.stop();
  }
});
