import { expect, test, type Page } from '@playwright/test';
import { watchPageProblems } from './support/csp';
import { newEmail, PASSWORD, registerUser, signIn, submitLogin } from './support/users';

/*
 * Account security (spec 1 §2, §4, §5): change password, log out from other sessions
 * (another browser's session ends on its next request) and the account-deletion wizard.
 * Each test signs in moments before the sensitive action, so no re-verification is asked.
 */

const NEW_PASSWORD = 'a-brand-new-password';

const realErrors = (errors: string[]) =>
  // 401s of the revoked session and the login attempts are expected network failures.
  errors.filter((e) => !e.startsWith('console: Failed to load resource'));

async function openPreferences(page: Page) {
  await page.goto('/preferences');
  await expect(page.getByRole('button', { name: 'Log out from other sessions' })).toBeVisible();
}

test('changes the password, then signs in with the new one only', async ({ page, browser }) => {
  const problems = await watchPageProblems(page);
  const email = newEmail('chpw');
  await registerUser(page.request, email);
  await signIn(page, email);
  await openPreferences(page);

  const form = page.getByRole('form', { name: 'Password', exact: true });
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByLabel('New password', { exact: true }).fill('short');
  await form.getByLabel('Confirm new password').fill('short');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Password must be at least 8 characters')).toBeVisible();

  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}x`);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('The passwords do not match')).toBeVisible();

  await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password was changed. Your other sessions were signed out.')).toBeVisible();
  // This session goes on.
  await page.goto('/orgs');
  await expect(page).toHaveURL(/\/orgs$/);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto('/login');
  await submitLogin(other, email, PASSWORD);
  await expect(other.getByText('Invalid login credentials')).toBeVisible();
  await submitLogin(other, email, NEW_PASSWORD);
  await expect(other).toHaveURL(/\/fleets$/);
  await fresh.close();
  expect(realErrors(problems.errors)).toEqual([]);
});

test('log out from other sessions signs the other browser out on its next request', async ({ page, browser }) => {
  const email = newEmail('logoutothers');
  await registerUser(page.request, email);
  const secondContext = await browser.newContext();
  const second = await secondContext.newPage();
  await signIn(second, email);
  await signIn(page, email);

  await openPreferences(page);
  await page.getByRole('button', { name: 'Log out from other sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log out from other sessions?' });
  await dialog.getByRole('button', { name: 'Log out other sessions' }).click();
  await expect(page.getByText('Your other sessions were signed out.')).toBeVisible();

  // The other browser's next request answers 'Your session has expired': it is signed out.
  await second.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Organizations' }).click();
  await expect(second).toHaveURL(/\/login$/);
  await expect(second.getByText('You were signed out: Your session has expired')).toBeVisible();
  await secondContext.close();

  // This browser stays signed in.
  await page.goto('/orgs');
  await expect(page).toHaveURL(/\/orgs$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('deletes the account through the wizard', async ({ page }) => {
  const problems = await watchPageProblems(page);
  const email = newEmail('delete');
  await registerUser(page.request, email);
  await signIn(page, email);
  await openPreferences(page);

  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  // The preflight lists the personal organization, which goes with the account.
  await expect(dialog.getByText('You are the only administrator of these organizations.', { exact: false })).toBeVisible();
  await expect(dialog.getByText('Fleets: 0 · Devices: 0')).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Delete my account' });
  await expect(confirm).toBeDisabled();

  await dialog.getByLabel('Password').fill('not-the-password');
  await confirm.click();
  await expect(dialog.getByText('The password is incorrect')).toBeVisible();

  await dialog.getByLabel('Password').fill(PASSWORD);
  await confirm.click();
  const steps = dialog.getByRole('list', { name: 'Delete account' });
  await expect(steps.getByRole('listitem')).toHaveCount(3); // verify, one subscription, the account
  await expect(dialog.getByText('Your account was deleted. Redirecting…')).toBeVisible();
  await expect(steps.getByText('No paid subscription: nothing to cancel')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  await submitLogin(page, email, PASSWORD);
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  expect(realErrors(problems.errors)).toEqual([]);
});
