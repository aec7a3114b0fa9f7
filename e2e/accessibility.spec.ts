import { expect, test, type Page } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { organizationWithFleet } from './support/fleets';
import { createProvisioningKey } from './support/simulator';
import { settleAfter } from './support/settle';
import { newEmail, signIn } from './support/users';

/*
 * Issue 11 item 9: axe-core over the main pages finds no serious or critical violation, and
 * keyboard focus on MUI buttons, tabs, chips and the header's account button is a clearly
 * visible ring. axe is injected from node_modules (no network).
 */

// axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
test.use({ bypassCSP: true });

test('the main pages have no serious or critical axe violations', async ({ page, request }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const user = await registerApiUser(request, newEmail('axe'));
  const { fleetId } = await organizationWithFleet(request, user, `Axe E2E ${stamp}`, `axefleet_${stamp}`, 'raspberrypi4-64');
  const orgs = await apiAs<{ d: { id: number; name: string }[] }>(request, user, 'GET', '/v7/organization?$select=id,name');
  const orgId = orgs.d.find((o) => o.name === `Axe E2E ${stamp}`)!.id;
  // A registered device (status Configuring until it reports): its configuration page.
  const provisioningKey = await createProvisioningKey(request, user, fleetId, 'e2e axe');
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  const registered = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid: hex(32), device_type: 'raspberrypi4-64', api_key: hex(32), supervisor_version: '16.1.0', os_version: 'balenaOS 5.3.0', os_variant: 'prod' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const device = (await registered.json()) as { id: number; uuid: string };
  const deviceName = (await apiAs<{ d: { device_name: string }[] }>(request, user, 'GET', `/v7/device(${device.id})?$select=device_name`)).d[0]!.device_name;
  await signIn(page, user.email);

  const pages: [string, string][] = [
    ['/fleets', 'Fleets'],
    ['/orgs', 'Organizations'],
    [`/orgs/${orgId}`, `Axe E2E ${stamp}`],
    [`/orgs/${orgId}/members`, `Axe E2E ${stamp} members`],
    [`/orgs/${orgId}/teams`, 'Teams'],
    [`/fleets/${fleetId}`, `axefleet_${stamp}`],
    [`/fleets/${fleetId}/devices`, `axefleet_${stamp}`],
    [`/fleets/${fleetId}/releases`, `axefleet_${stamp}`],
    [`/fleets/${fleetId}/settings`, `axefleet_${stamp}`],
    [`/fleets/${fleetId}/config`, `axefleet_${stamp}`],
    [`/devices/${device.uuid}/config`, deviceName],
    ['/preferences', 'Preferences'],
    ['/preferences/appearance', 'Preferences'],
    ['/support', 'Support'],
    ['/no-such-page', 'Page not found'],
  ];
  const found: Record<string, string[]> = {};
  for (const [path, heading] of pages) {
    await settleAfter(page, async () => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(heading, { ignoreCase: true });
    });
    const violations = await seriousViolations(page);
    if (violations.length) found[path] = violations;
  }
  expect(found).toEqual({});
});

// Issue 14 item 4: the Add device dialog, on both tabs and with a generated command.
test('the Add device dialog has no serious or critical axe violations', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const user = await registerApiUser(request, newEmail('axeadd'));
  const { fleetId } = await organizationWithFleet(request, user, `Axe add E2E ${stamp}`, `axeadd_${stamp}`, 'raspberrypi4-64');
  await signIn(page, user.email);
  await page.goto(`/fleets/${fleetId}`);
  await page.getByRole('button', { name: 'Add device' }).click();
  const dialog = page.getByRole('dialog', { name: `Add a device to axeadd_${stamp}` });
  await dialog.getByRole('button', { name: 'Generate command' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Command', exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('tab', { name: 'balenaOS' }).click();
  await expect(dialog.getByRole('button', { name: 'Download config.json' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

// Issue 16: the configuration page with staged rows and the bar, and each of its dialogs.
test('the configuration page with staged changes and its dialogs has no serious or critical axe violations', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const user = await registerApiUser(request, newEmail('axecfg'));
  const { fleetId } = await organizationWithFleet(request, user, `Axe config E2E ${stamp}`, `axecfg_${stamp}`, 'raspberrypi4-64');
  await apiAs(request, user, 'POST', '/v7/application_config_variable', { application: fleetId, name: 'BALENA_HOST_FIREWALL_MODE', value: 'on' });
  await signIn(page, user.email);
  await page.goto(`/fleets/${fleetId}/config`);
  await page.getByRole('switch', { name: 'BALENA_SUPERVISOR_DELTA' }).click();
  await page.getByRole('button', { name: 'Remove the fleet value of BALENA_HOST_FIREWALL_MODE' }).click();
  await expect(page.getByRole('region', { name: 'Pending changes' })).toContainText('2 pending changes');
  expect(await seriousViolations(page)).toEqual([]);
  // Each dialog with what it shows once loaded.
  const dialogs: [string, string, string][] = [
    ['Edit BALENA_SUPERVISOR_POLL_INTERVAL', 'Edit BALENA_SUPERVISOR_POLL_INTERVAL', 'Reads as 10 min'],
    ['Add custom configuration', 'Add custom configuration', 'Begins with BALENA_ or RESIN_'],
    ['Overrides of BALENA_HOST_FIREWALL_MODE', 'Devices that override BALENA_HOST_FIREWALL_MODE', 'No device overrides this variable'],
    ['History of BALENA_HOST_FIREWALL_MODE', 'History of BALENA_HOST_FIREWALL_MODE', '(none) → on'],
  ];
  for (const [button, title, loaded] of dialogs) {
    await page.getByRole('button', { name: button }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog.getByText(loaded)).toBeVisible();
    expect(await seriousViolations(page), title).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // Focus goes back to the button that opened it (before the next dialog opens: a late
    // return would blur that dialog's first field and show its "cannot be empty" at once).
    await expect(page.getByRole('button', { name: button })).toBeFocused();
  }
});

// Issue 17: the device pages' host OS and supervisor parts and the supervisor update dialog.
test('the OS badge, the OS and supervisor update rows and the supervisor dialog have no serious or critical axe violations', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const user = await registerApiUser(request, newEmail('axeos'));
  const { fleetId } = await organizationWithFleet(request, user, `Axe OS E2E ${stamp}`, `axeos_${stamp}`, 'raspberrypi4-64');
  const provisioningKey = await createProvisioningKey(request, user, fleetId, 'e2e axe os');
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  const registered = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid: hex(32), device_type: 'raspberrypi4-64', api_key: hex(32), supervisor_version: '16.1.0', os_version: 'balenaOS 2024.10.1', os_variant: 'prod' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const device = (await registered.json()) as { uuid: string };
  await signIn(page, user.email);
  await page.goto(`/devices/${device.uuid}`);
  const overview = page.getByRole('region', { name: 'Host OS and supervisor updates' });
  await expect(overview).toContainText('2025.7.0+rev0.prod', { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Device details' }).getByText('ESR', { exact: true })).toBeVisible();
  expect(await seriousViolations(page, ['section[aria-label="Device details"]'])).toEqual([]);
  // An ESR device's supervisor update is blocked: a non-ESR one opens the dialog.
  await page.goto(`/devices/${device.uuid}/settings`);
  await expect(page.getByRole('region', { name: 'Supervisor update' })).toContainText('Cannot update ESR supervisor', { timeout: 20_000 });
  expect(await seriousViolations(page, ['section[aria-label="Host OS update"]', 'section[aria-label="Supervisor update"]'])).toEqual([]);
  const other = await request.post('/device/register', {
    headers: { Authorization: `Bearer ${provisioningKey}` },
    data: { application: fleetId, uuid: hex(32), device_type: 'raspberrypi4-64', api_key: hex(32), supervisor_version: '16.1.0', os_version: 'balenaOS 6.0.10', os_variant: 'prod' },
  });
  expect(other.status(), await other.text()).toBe(201);
  await page.goto(`/devices/${((await other.json()) as { uuid: string }).uuid}/settings`);
  await page.getByRole('region', { name: 'Supervisor update' }).getByRole('button', { name: 'Update supervisor' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('radio', { name: '17.0.2' })).toBeChecked();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('button', { name: 'Confirm update' })).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
});

async function focusRing(page: Page): Promise<{ style: string; width: number }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const css = getComputedStyle(el);
    return { style: css.outlineStyle, width: parseFloat(css.outlineWidth) };
  });
}

/**
 * The focused element draws an outline of at least 2 px. MUI marks keyboard focus
 * (`Mui-focusVisible`) in a React state update after the focus event, so the ring may appear a
 * render later: look until it does.
 */
async function expectFocusRing(page: Page, what: string): Promise<void> {
  await expect
    .poll(async () => {
      const ring = await focusRing(page);
      return ring.style !== 'none' && ring.width >= 2 ? 'ring' : `outline ${ring.style} ${ring.width}px`;
    }, { message: `focus ring on ${what}` })
    .toBe('ring');
}

test('keyboard focus on buttons, tabs, chips and the account button draws a visible outline', async ({ page, request }) => {
  const user = await registerApiUser(request, newEmail('focus'));
  await signIn(page, user.email);
  await page.goto('/preferences');
  await expect(page.getByRole('tab', { name: 'Account details', selected: true })).toBeVisible();

  const targets = [
    page.getByRole('button', { name: /e2e_focus/ }), // the header's account button
    page.getByRole('tab', { name: 'Account details' }),
    page.getByRole('button', { name: 'Collapse sidebar' }),
  ];
  for (const target of targets) {
    // Focus by keyboard: focus the element before it, then Tab onto it (:focus-visible).
    await target.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(target).toBeFocused();
    await expectFocusRing(page, await target.evaluate((el) => el.outerHTML.slice(0, 80)));
  }
  // Arrow keys move between tabs (roving focus): the next tab shows the ring too.
  await page.getByRole('tab', { name: 'Account details' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'SSH keys' })).toBeFocused();
  await expectFocusRing(page, 'the SSH keys tab');

  // A clickable chip (the device list's status filters).
  const { fleetId } = await organizationWithFleet(request, user, `Focus ${Date.now().toString(36)}`, `focusfleet_${Date.now().toString(36)}`, 'raspberrypi4-64');
  await page.goto(`/fleets/${fleetId}/devices`);
  const chip = page.getByRole('group', { name: 'Devices per status' }).getByRole('button').first();
  await chip.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(chip).toBeFocused();
  await expectFocusRing(page, 'a status chip');

  // A contained button.
  await page.goto('/fleets');
  const create = page.getByRole('button', { name: 'Create fleet' }).first();
  await create.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(create).toBeFocused();
  await expectFocusRing(page, 'the Create fleet button');
});
