import { expect, test } from '@playwright/test';
import { latestMailTo, linkPath, platformAdminToken } from './support/outbox';
import { newEmail, PASSWORD, submitLogin } from './support/users';

/*
 * Issue 6 items 2–3 end to end: sign up (newsletter, dummy captcha) → verify the address
 * through the link in the mail the server sent (read from the outbox as the platform
 * administrator) → the profile step → sign out → reset the password through the mailed link
 * (single use; a second request right away is rate-limited) → sign in with the new password.
 */
test('sign up, verify by mail, complete the profile, reset the password by mail and sign in with it', async ({ page, request }) => {
  const email = newEmail('recovery');
  const NEW_PASSWORD = 'a-new-passphrase-42';

  // Sign up, asking for the newsletter.
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByLabel('Send me the Flotilla newsletter').check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/fleets$/);

  // The verification mail links to /user/verify-email/{token}/{email}; opening it verifies
  // the address and leads to the profile step.
  const verifyMail = await latestMailTo(request, email);
  expect(verifyMail.subject).toBe('Verify your email address for Flotilla');
  const verifyPath = linkPath(verifyMail.text_body, '/user/verify-email/');
  expect(decodeURIComponent(verifyPath.split('/').at(-1)!)).toBe(email);
  await page.goto(verifyPath);
  await expect(page).toHaveURL(/\/signup\/profile$/);
  await expect(page.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
  // No sidebar on the profile step.
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);

  // The profile step: every field is required.
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Account type is required')).toBeVisible();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Company').fill('Analytical Engines');
  await page.getByLabel('Account type').selectOption('professional');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(/\/fleets$/);

  // What the server stored.
  const admin = await platformAdminToken(request);
  const users = await request.get(
    `/v7/user?$select=first_name,last_name,company,account_type,has_disabled_newsletter,is_verified&$filter=${encodeURIComponent(`email eq '${email}'`)}`,
    { headers: { Authorization: `Bearer ${admin}` } },
  );
  expect(users.status(), await users.text()).toBe(200);
  expect((await users.json()).d).toEqual([
    {
      first_name: 'Ada',
      last_name: 'Lovelace',
      company: 'Analytical Engines',
      account_type: 'professional',
      has_disabled_newsletter: false,
      is_verified: true,
    },
  ]);

  // The verification link works once: a second visit fails and goes to the pending page.
  await page.goto(verifyPath);
  await expect(page.getByText('There was an issue verifying your email address').first()).toBeVisible();
  await expect(page).toHaveURL(/\/user\/verify-email\/pending$/);

  // Sign out.
  await page.goto('/fleets');
  await page.getByRole('button', { name: /^e2e_recovery/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // Ask for a reset link.
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/password-reset$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page).toHaveURL(/\/password-reset\/success$/);
  await expect(page.getByText('If an account exists for that address')).toBeVisible();

  const resetMail = await latestMailTo(request, email);
  expect(resetMail.subject).toBe('Reset your Flotilla password');
  const resetPath = linkPath(resetMail.text_body, '/user/reset-password/');

  // Choose the new password (8–64, confirmed).
  await page.goto(resetPath);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill('something-else-1');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been changed')).toBeVisible();

  // Another request right away is rate-limited, with the next valid time.
  await page.goto('/password-reset');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(/Too many requests, available again in \d+ (seconds?|minutes?)/)).toBeVisible();
  await expect(page).toHaveURL(/\/password-reset$/);

  // The mailed code was used up.
  await page.goto(resetPath);
  await page.getByLabel('New password', { exact: true }).fill('yet-another-passphrase');
  await page.getByLabel('Confirm new password').fill('yet-another-passphrase');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('The reset code is invalid')).toBeVisible();

  // The old password no longer works; the new one does.
  await page.goto('/login');
  await submitLogin(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/fleets$/);
});
