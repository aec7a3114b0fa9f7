import { expect, test, type Locator, type Page } from '@playwright/test';
import { registerApiUser } from './support/api';
import { deployRelease, newCommit } from './support/releases';
import { newEmail, PASSWORD, registerUser, submitLogin } from './support/users';
import { organizationWithFleet } from './support/fleets';

/*
 * Issue 11 items 6 and 7: labels never sit on a field's value (the create dialog's suggested
 * name, the small release search and tag fields), the device-type picker is an autocomplete
 * with logos and option states, and sign-in errors are shown on the form, not as a toast
 * that outlives the sign-in.
 */

/** The label's box ends above the text area of its input (the input's box less its top padding). */
async function expectLabelClearOfValue(page: Page, input: Locator): Promise<void> {
  const id = await input.getAttribute('id');
  const label = page.locator(`label[for="${id}"]`);
  const labelBox = (await label.boundingBox())!;
  const inputBox = (await input.boundingBox())!;
  const paddingTop = await input.evaluate((el) => parseFloat(getComputedStyle(el).paddingTop));
  const textTop = inputBox.y + paddingTop;
  expect(labelBox.y + labelBox.height, `label of #${id} overlaps its value`).toBeLessThanOrEqual(textTop + 0.5);
}

test('create dialog: the label clears the suggested name; device types in an autocomplete with logos and states', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const email = newEmail('fields');
  const admin = await registerApiUser(request, email);
  const orgName = `Fields E2E ${stamp}`;
  const { fleetId } = await organizationWithFleet(request, admin, orgName, `fields_${stamp}`, 'raspberrypi4-64');
  const releaseId = await deployRelease(request, admin, fleetId, { commit: newCommit(), composition: { version: '2.1', services: { main: { build: './main' } } }, services: [{ name: 'main' }], semver: '1.0.0' });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/login');
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/fleets$/);
  await page.getByRole('button', { name: 'Create fleet' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create fleet' });
  const name = dialog.getByLabel('Fleet name');
  await expect(name).toHaveValue(/^[a-z]+-[a-z]+$/);
  await expectLabelClearOfValue(page, name);

  // The device type is an autocomplete (not a native <select>), the recommended type chosen.
  const deviceType = dialog.getByRole('combobox', { name: 'Device type' });
  await expect(deviceType).toHaveValue('Raspberry Pi 4 (using 64bit OS)');
  expect(await deviceType.evaluate((el) => el.tagName)).toBe('INPUT');
  await expectLabelClearOfValue(page, deviceType);
  await deviceType.click();
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option', { name: /Raspberry Pi 4 \(using 64bit OS\)/ })).toContainText('Recommended');
  // Each option carries the type's logo (or its placeholder) and its state.
  const fin = listbox.getByRole('option', { name: /Balena Fin \(CM3\)/ });
  await expect(fin).toContainText('unavailable');
  await expect(fin).toHaveAttribute('aria-disabled', 'true');
  await expect(fin.getByTestId('device-type-logo')).toBeVisible();
  // Typing filters; choosing sets the value.
  await deviceType.fill('Raspberry Pi 3');
  await listbox.getByRole('option', { name: 'Raspberry Pi 3', exact: true }).click();
  await expect(deviceType).toHaveValue('Raspberry Pi 3');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Release search and tag fields (size small): the labels clear their values.
  await page.goto(`/fleets/${fleetId}/releases`);
  const search = page.getByLabel('Search releases');
  await search.fill('1.0');
  await expectLabelClearOfValue(page, search);
  await page.goto(`/fleets/${fleetId}/releases/${releaseId}/summary`);
  const tagKey = page.locator('#release-tag-key');
  await tagKey.fill('room');
  await expectLabelClearOfValue(page, tagKey);
  await expectLabelClearOfValue(page, page.locator('#release-tag-value'));
});

test('a failed sign-in shows its error on the form; the correct sign-in leaves no error behind', async ({ page, request }) => {
  const email = newEmail('signinerr');
  await registerUser(request, email);
  await page.goto('/login');
  await submitLogin(page, email, 'not-the-password');
  const password = page.getByLabel('Password', { exact: true });
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email or username')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#login-password-help')).toHaveText('Invalid login credentials');
  // On the form, not in a toast.
  await expect(page.locator('#notistack-snackbar')).toHaveCount(0);

  await submitLogin(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByText('Invalid login credentials')).toHaveCount(0);
  await expect(page.locator('#notistack-snackbar')).toHaveCount(0);
});
