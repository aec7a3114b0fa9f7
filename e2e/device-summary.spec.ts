import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiAs, registerApiUser, type ApiUser, type V7 } from './support/api';
import { watchPageProblems } from './support/csp';
import { deployRelease, newCommit } from './support/releases';
import { createProvisioningKey, simulateFleet, type Simulation } from './support/simulator';
import { newEmail, signIn } from './support/users';
import { organizationWithFleet } from './support/fleets';
import { reloadUntil } from './support/settle';

/*
 * Issue 5 item 5, the device summary with a simulated device: tags through the tag manager
 * (checked through the API), the markdown note and its syntax dialog, and the services card
 * showing the device's service and restarting it through the simulator.
 */

const DEVICE_TYPE = 'raspberrypi4-64';

async function tagsOf(request: APIRequestContext, user: ApiUser, deviceId: number): Promise<[string, string][]> {
  const res = await apiAs<V7<'device_tag', 'tag_key' | 'value'>>(request, user, 'GET', `/v7/device_tag?$select=tag_key,value&$orderby=tag_key%20asc&$filter=device%20eq%20${deviceId}`);
  return res.d.map((t) => [t.tag_key, t.value]);
}

test('device summary: tag manager, markdown note, services card with a restart round trip', async ({ page, request }) => {
  test.setTimeout(90_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const admin = await registerApiUser(request, newEmail('summary'));
  const { fleetId } = await organizationWithFleet(request, admin, `Summary E2E ${stamp}`, `summary_${stamp}`, DEVICE_TYPE);
  const releaseId = await deployRelease(request, admin, fleetId, {
    commit: newCommit(),
    composition: { version: '2.1', services: { main: { build: './main' } } },
    services: [{ name: 'main' }],
    semver: '1.0.0',
  });
  await apiAs(request, admin, 'PATCH', `/v7/application(${fleetId})`, { should_track_latest_release: false, should_be_running__release: releaseId });
  const provisioningKey = await createProvisioningKey(request, admin, fleetId);

  const lines: string[] = [];
  let simulation: Simulation | undefined;
  try {
    simulation = await simulateFleet({ provisioningKey, fleetId: fleetId, deviceType: DEVICE_TYPE, count: 1, log: (m) => lines.push(m) });
    const device = simulation.devices[0]!;
    const uuid = device.uuid;
    let deviceId = 0;
    await expect
      .poll(
        async () => {
          const res = await apiAs<V7<'device', 'id' | 'is_online' | 'is_running__release'>>(
            request,
            admin,
            'GET',
            `/v7/device?$select=id,is_online,is_running__release&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`,
          );
          deviceId = res.d[0]?.id ?? 0;
          return res.d[0]?.is_online === true && res.d[0].is_running__release?.__id === releaseId;
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    await signIn(page, admin.email);
    await page.goto(`/devices/${uuid}`);
    const details = page.getByRole('region', { name: 'Device details' });
    await expect(details).toContainText(/Local mode\s*Off/);

    // Tags: a reserved key is refused in the dialog, then two tags are staged and saved together.
    await details.getByRole('button', { name: '0 tags' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add tag' }).click();
    await dialog.getByRole('textbox', { name: 'Tag 1 key' }).fill('io.balena.x');
    await expect(dialog).toContainText('Tag keys beginning with io.balena. are reserved.');
    await expect(dialog.getByRole('button', { name: 'Save 1 change' })).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Tag 1 key' }).fill('room');
    await dialog.getByRole('textbox', { name: 'Tag 1 value' }).fill('kitchen');
    await dialog.getByRole('button', { name: 'Add tag' }).click();
    await dialog.getByRole('textbox', { name: 'Tag 2 key' }).fill('floor');
    await dialog.getByRole('textbox', { name: 'Tag 2 value' }).fill('1');
    await dialog.getByRole('button', { name: 'Save 2 changes' }).click();
    await expect(page.getByText('Tags saved')).toBeVisible();
    await expect(dialog).toBeHidden();
    expect(await tagsOf(request, admin, deviceId)).toEqual([
      ['floor', '1'],
      ['room', 'kitchen'],
    ]);
    await expect(details.getByRole('button', { name: '2 tags' })).toBeVisible();
    // Deleting one and changing the other, saved together.
    await details.getByRole('button', { name: '2 tags' }).click();
    await dialog.getByRole('button', { name: 'Delete tag 1' }).click();
    await dialog.getByRole('textbox', { name: 'Tag 2 value' }).fill('pantry');
    await dialog.getByRole('button', { name: 'Save 2 changes' }).click();
    await expect(dialog).toBeHidden();
    expect(await tagsOf(request, admin, deviceId)).toEqual([['room', 'pantry']]);

    // The note: edited inline, saved after a pause, rendered as markdown once editing ends.
    await details.getByRole('button', { name: 'Add a note' }).click();
    const note = details.getByRole('textbox', { name: 'Note' });
    await expect(note).toBeFocused();
    await note.fill('Rack **seven**, see [the runbook](https://example.com/runbook)\n\n<b>raw</b>');
    await expect(details.getByText('Saved')).toBeVisible();
    await details.getByRole('button', { name: 'Done' }).click();
    const rendered = details.getByTestId('device-note-view');
    await expect(rendered.locator('strong')).toHaveText('seven');
    const link = rendered.getByRole('link', { name: 'the runbook' });
    await expect(link).toHaveAttribute('href', 'https://example.com/runbook');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(rendered).toContainText('<b>raw</b>');
    await expect(rendered.locator('b')).toHaveCount(0);
    const saved = await apiAs<V7<'device', 'note'>>(request, admin, 'GET', `/v7/device?$select=note&$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}`);
    expect(saved.d[0]!.note).toContain('**seven**');
    // Keyboard: Enter on the rendered note edits it again; Escape leaves.
    await rendered.focus();
    await page.keyboard.press('Enter');
    await expect(details.getByRole('textbox', { name: 'Note' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(rendered).toBeVisible();

    await details.getByRole('button', { name: 'Supported syntax' }).click();
    const syntax = page.getByRole('dialog', { name: 'Supported markdown syntax' });
    await expect(syntax).toBeVisible();
    await expect(syntax.getByRole('row', { name: /Bold/ }).locator('strong')).toHaveText('bold');
    await syntax.getByRole('button', { name: 'Close' }).click();
    await expect(syntax).toBeHidden();

    // Services: the device's service with the status it reported, then a restart round trip.
    const services = page.getByRole('region', { name: 'Services' });
    const main = services.getByRole('listitem', { name: 'main' });
    await expect(main).toContainText('Release 1.0.0');
    const reported = await apiAs<V7<'image_install', 'status'>>(
      request,
      admin,
      'GET',
      `/v7/image_install?$select=status&$filter=${encodeURIComponent(`device eq ${deviceId} and status ne 'deleted'`)}`,
    );
    await expect(main).toContainText(reported.d[0]!.status);
    await main.getByRole('button', { name: 'Restart main', exact: true }).click();
    await expect(page.getByText('Restart main: request sent to the device')).toBeVisible();
    await expect.poll(() => lines.some((l) => l.includes('restart-service main')), { timeout: 10_000 }).toBe(true);
    // The simulator runs the container again and reports it; the card follows.
    await reloadUntil(page, page.getByRole('region', { name: 'Services' }).getByRole('listitem', { name: 'main' }), (item) =>
      expect(item).toContainText('Running', { timeout: 2_000 }),
    );
    await expect(page.getByRole('region', { name: 'Services' }).getByRole('button', { name: 'Start main', exact: true })).toBeDisabled();

    // Stop asks first.
    await page.getByRole('region', { name: 'Services' }).getByRole('button', { name: 'Stop main', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Stop main?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect(lines.some((l) => l.includes('stop-service'))).toBe(false);
  } finally {
    await simulation?.stop();
  }
  expect(problems.errors).toEqual([]);
});
