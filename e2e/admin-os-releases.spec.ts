import { DEVICE_TYPES, OS_PUBLISH_MESSAGES } from '@flotilla/model';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { watchPageProblems } from './support/csp';
import { organizationWithFleet } from './support/fleets';
import { supportAgent } from './support/staff';
import { PLATFORM_ADMIN } from './support/outbox';
import { createProvisioningKey, simulateFleet, type Simulation } from './support/simulator';
import { newEmail, signIn, submitLogin } from './support/users';

/*
 * Issue 17: the platform administrator publishes a host OS release on /admin (validated with
 * the server's messages, confirmed), it is listed and offered at once to a simulated device of
 * that type on its settings page; withdrawing takes it out of the list's offer; an agent build
 * is published as a supervisor release. Support staff read the lists without the controls and
 * the server refuses them; axe finds nothing serious on the page.
 *
 * Types no other spec judges OS or supervisor versions on: raspberrypi3-64 (aarch64) for the
 * OS release, the `rpi` architecture for the agent build.
 */
const DEVICE_TYPE = 'raspberrypi3-64';
const TYPE_NAME = DEVICE_TYPES.find((d) => d.slug === DEVICE_TYPE)!.name;
const SUPERVISOR_ARCH = 'rpi';
const random = (n: number) => Math.floor(Math.random() * n);

async function signInAsAdmin(page: Page) {
  await page.goto('/login');
  await submitLogin(page, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password);
  await expect(page).toHaveURL(/\/fleets$/);
}

async function openOsReleases(page: Page) {
  await page.goto('/admin');
  const section = page.getByRole('region', { name: 'Host OS releases' });
  await section.getByLabel('Device type').selectOption(DEVICE_TYPE);
  const table = section.getByRole('table', { name: `OS releases of ${TYPE_NAME}` });
  await expect(table.getByRole('row').filter({ hasText: '6.0.10+rev0.prod' })).toHaveCount(1, { timeout: 30_000 });
  return { section, table };
}

test('the administrator publishes an OS release a device of that type is offered at once, withdraws one, and publishes an agent build', async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const owner = await registerApiUser(request, newEmail('osowner'));
  const { fleetId } = await organizationWithFleet(request, owner, `OS publish ${stamp}`, `ospub_${stamp}`, DEVICE_TYPE);
  const provisioningKey = await createProvisioningKey(request, owner, fleetId);
  let simulation: Simulation | undefined;
  try {
    simulation = await simulateFleet({ provisioningKey, fleetId, deviceType: DEVICE_TYPE, count: 1, seed: 31 });
    const uuid = simulation.devices[0]!.uuid;
    let variant = '';
    await expect
      .poll(
        async () => {
          const rows = await apiAs<{ d: { is_online: boolean; os_version: string | null; os_variant: string | null }[] }>(
            request,
            owner,
            'GET',
            `/v7/device?$select=is_online,os_version,os_variant&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`,
          );
          variant = rows.d[0]?.os_variant ?? '';
          return rows.d[0]?.is_online === true && rows.d[0]?.os_version === 'balenaOS 6.0.10';
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const version = `6.${100 + random(800)}.${random(50)}`;
    const published = `${version}+rev0.${variant}`;

    await signInAsAdmin(page);
    const { section, table } = await openOsReleases(page);

    // The form refuses what the server refuses, with its words; then a confirmation.
    await section.getByRole('button', { name: 'Publish OS release' }).click();
    const dialog = page.getByRole('dialog', { name: `Publish an OS release for ${TYPE_NAME}` });
    const versionField = dialog.getByLabel('Version', { exact: true });
    await versionField.fill('6.1');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText(OS_PUBLISH_MESSAGES.badVersion);
    await versionField.fill('6.0.10');
    await dialog.getByLabel('Variant').selectOption('prod');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText(OS_PUBLISH_MESSAGES.exists);
    await versionField.fill('2026.2.0');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText(OS_PUBLISH_MESSAGES.esrWithoutBase);
    await versionField.fill(version);
    await dialog.getByLabel('Variant').selectOption(variant);
    await dialog.getByLabel('Phase').selectOption('next');
    await dialog.getByLabel('Release notes').fill('Published from the e2e test.');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText(`Publish ${published} for ${TYPE_NAME}?`);
    // Back to the form keeps what was typed.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await expect(versionField).toHaveValue(version);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toContainText(`Publish ${published} for ${TYPE_NAME}?`);
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `Published ${published}` })).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = table.getByRole('row').filter({ hasText: published });
    await expect(row).toContainText('Default');
    await expect(row).toContainText('next');
    await expect(row).toContainText('Offered');

    // The device's owner sees it among the OS update targets on the device's settings page.
    const ownerContext = await browser.newContext();
    try {
      const ownerPage = await ownerContext.newPage();
      await signIn(ownerPage, owner.email);
      await ownerPage.goto(`/devices/${uuid}/settings`);
      const osRow = ownerPage.getByRole('region', { name: 'Host OS update' });
      await expect(osRow).toContainText(published, { timeout: 60_000 });
      await osRow.getByRole('button', { name: 'Update OS' }).click();
      await expect(ownerPage.getByRole('dialog').getByRole('radio', { name: published })).toBeVisible();
    } finally {
      await ownerContext.close();
    }

    // Withdraw the other variant of it, published through the API as the administrator would.
    const adminToken = (await (await request.post('/login_', { data: PLATFORM_ADMIN })).text()).trim();
    const other = variant === 'prod' ? 'dev' : 'prod';
    const res = await request.post('/admin/v1/os-releases', { headers: { Authorization: `Bearer ${adminToken}` }, data: { deviceType: DEVICE_TYPE, version, variant: other } });
    expect(res.status(), await res.text()).toBe(201);
    const withdrawn = `${version}+rev0.${other}`;
    await page.reload();
    await section.getByLabel('Device type').selectOption(DEVICE_TYPE);
    await section.getByRole('button', { name: `Withdraw ${withdrawn}` }).click();
    const confirm = page.getByRole('dialog', { name: `Withdraw ${withdrawn}?` });
    await confirm.getByRole('button', { name: 'Withdraw' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `Withdrew ${withdrawn}` })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: withdrawn })).toContainText('Withdrawn');
    await expect(section.getByRole('button', { name: `Withdraw ${withdrawn}` })).toHaveCount(0);
    await expect(section.getByRole('button', { name: `Withdraw ${published}` })).toBeVisible();

    // An agent build becomes a supervisor release of one architecture.
    const agentVersion = `90.${random(1000)}.${random(100)}`;
    const supervisors = page.getByRole('region', { name: 'Supervisor releases' });
    await supervisors.getByRole('button', { name: 'Publish agent build' }).click();
    const upload = page.getByRole('dialog', { name: 'Publish an agent build' });
    await upload.getByLabel('Agent build file').setInputFiles({
      name: 'flotilla-agent.mjs',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(`#!/usr/bin/env node\n// flotilla-agent ${agentVersion}: e2e build\nconsole.log('agent');\n`),
    });
    await upload.getByLabel('Version').fill('90.1');
    await upload.getByRole('button', { name: 'Continue' }).click();
    await expect(upload).toContainText("Invalid supervisor version '90.1': use a version like 17.1.0");
    await upload.getByLabel('Version').fill(agentVersion);
    await upload.getByLabel('CPU architecture').selectOption(SUPERVISOR_ARCH);
    await upload.getByRole('button', { name: 'Continue' }).click();
    await expect(upload).toContainText(`Publish agent ${agentVersion} (flotilla-agent.mjs) for ${SUPERVISOR_ARCH}?`);
    await upload.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `Published agent ${agentVersion}` })).toBeVisible();
    await expect(supervisors.getByRole('table', { name: 'Supervisor releases' }).getByRole('row').filter({ hasText: agentVersion })).toContainText(SUPERVISOR_ARCH);
    const listed = await (await request.get(`/v7/release?$select=raw_version&$filter=${encodeURIComponent(`belongs_to__application/any(a:a/slug eq 'balena_os/${SUPERVISOR_ARCH}-supervisor') and raw_version eq '${agentVersion}'`)}`)).json();
    expect(listed.d).toHaveLength(1);
    expect(problems.errors.filter((e) => !e.startsWith('console: Failed to load resource'))).toEqual([]);
  } finally {
    await simulation?.stop();
  }
});

test('support staff read the lists without publish controls, and the server refuses them', async ({ page, request }) => {
  const support = await supportAgent(request, newEmail('ossupport'));
  const refused = await request.post('/admin/v1/os-releases', { headers: { Authorization: `Bearer ${support.token}` }, data: { deviceType: DEVICE_TYPE, version: '6.999.0', variant: 'prod' } });
  expect([refused.status(), await refused.json()]).toEqual([403, 'Only platform administrators may publish or withdraw OS releases']);
  const user = await registerApiUser(request, newEmail('osuser'));
  const refusedUser = await request.post('/admin/v1/os-releases', { headers: { Authorization: `Bearer ${user.token}` }, data: { deviceType: DEVICE_TYPE, version: '6.999.0', variant: 'prod' } });
  expect(refusedUser.status()).toBe(403);

  await signIn(page, support.email);
  const { section } = await openOsReleases(page);
  await expect(section).toContainText('Only platform administrators can publish or withdraw OS releases');
  await expect(section.getByRole('button', { name: 'Publish OS release' })).toHaveCount(0);
  await expect(section.getByRole('button', { name: /^Withdraw / })).toHaveCount(0);
  const supervisors = page.getByRole('region', { name: 'Supervisor releases' });
  await expect(supervisors.getByRole('table', { name: 'Supervisor releases' }).getByRole('row').filter({ hasText: '17.0.2' }).first()).toBeVisible();
  await expect(supervisors.getByRole('button', { name: 'Publish agent build' })).toHaveCount(0);
});

test.describe('accessibility', () => {
  // axe is injected as an inline script, which the dashboard's CSP (rightly) forbids.
  test.use({ bypassCSP: true });

  test('the admin page with its release sections has no serious or critical axe violations', async ({ page }) => {
    await signInAsAdmin(page);
    await openOsReleases(page);
    await expect(page.getByRole('region', { name: 'Supervisor releases' }).getByRole('table')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
