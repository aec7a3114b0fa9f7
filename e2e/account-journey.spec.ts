import { expect, test, type Page } from '@playwright/test';
import { watchPageProblems } from './support/csp';
import { receivedMail } from './support/smtp';
import { nextTotpCode, totpStep } from './support/totp';
import { newEmail, PASSWORD, submitLogin } from './support/users';

/*
 * Issue 6's end-to-end journey as one continuous scenario: sign up → verify the address
 * through the mail received over SMTP → complete the profile → enable two-factor (the test
 * computes TOTP codes) → sign out → sign in with TOTP → sign out → sign in with a recovery
 * code → create an API key, see it once, revoke it → delete the account. The e2e server
 * sends every mail over SMTP to e2e/support/smtp-sink.mjs.
 */

async function signOut(page: Page, email: string) {
  await page.getByRole('button', { name: new RegExp(`^${email.split('@')[0]!.slice(0, 12)}`) }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('sign up, verify by SMTP mail, profile, two-factor, TOTP and recovery-code sign-ins, an API key shown once and revoked, account deleted', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const email = newEmail('journey6');

  // Sign up.
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/fleets$/);

  // The verification mail arrives over SMTP; its link verifies and leads to the profile step.
  const mail = await receivedMail(page.request, email, /^Verify your email address/);
  const link = /https?:\/\/[^\s"<>]+\/user\/verify-email\/[^\s"<>]+/.exec(mail.body)?.[0];
  expect(link, mail.body).toBeDefined();
  await page.goto(new URL(link!).pathname);
  await expect(page).toHaveURL(/\/signup\/profile$/);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Company').fill('Fleet Works');
  await page.getByLabel('Account type').selectOption('personal');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(/\/fleets$/);

  // Two-factor on: QR and pairing code, a code from the "app", then the recovery codes.
  await page.goto('/preferences/2fa');
  await expect(page.getByTestId('two-factor-status')).toHaveText('Disabled');
  await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();
  const setup = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
  await expect(setup.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await setup.getByTestId('pairing-code').innerText()).replace(/\s/g, '');
  const enableCode = nextTotpCode(secret, totpStep() - 2);
  await setup.getByLabel('Authentication code').fill(enableCode.code);
  await setup.getByRole('button', { name: 'Enable' }).click();
  const codesDialog = page.getByRole('dialog', { name: 'Recovery codes' });
  await expect(codesDialog.getByTestId('recovery-code')).toHaveCount(10);
  const codes = (await codesDialog.getByTestId('recovery-code').allInnerTexts()).map((c) => c.trim());
  await codesDialog.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page.getByTestId('two-factor-status')).toHaveText('Enabled');

  // Sign out; sign in with the password, then a TOTP code (auto-submitted at 6 characters).
  await signOut(page, email);
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByLabel('Authentication code').fill(nextTotpCode(secret, enableCode.step).code);
  await expect(page).toHaveURL(/\/fleets$/);

  // Sign out; sign in with a recovery code.
  await signOut(page, email);
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[3]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/fleets$/);

  // An API key: shown once, works, then revoked and refused.
  await page.goto('/preferences/access-tokens');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByLabel('Name').fill('journey key');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toContainText('it is shown only this once');
  const key = await dialog.getByLabel('Your new API key').inputValue();
  expect((await page.request.get('/actor/v1/whoami', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText(key)).toHaveCount(0);
  await page.getByRole('button', { name: 'Revoke API key journey key' }).click();
  await page.getByRole('dialog', { name: 'Revoke API key?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('You have no API keys.')).toBeVisible();
  expect((await page.request.get('/actor/v1/whoami', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(401);

  // Delete the account through the wizard; the credentials stop working.
  await page.goto('/preferences');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const wizard = page.getByRole('dialog', { name: 'Delete account' });
  await wizard.getByLabel('Password').fill(PASSWORD);
  await wizard.getByRole('button', { name: 'Delete my account' }).click();
  await expect(wizard.getByText('Your account was deleted. Redirecting…')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  await submitLogin(page, email, PASSWORD);
  await expect(page.getByText('Invalid login credentials')).toBeVisible();

  // Only the refused login's 401 may show in the console.
  expect(problems.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});
