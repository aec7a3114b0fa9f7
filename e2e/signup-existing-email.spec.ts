import { expect, test } from '@playwright/test';
import { newEmail, PASSWORD, registerUser } from './support/users';

/*
 * Issue 11 (1j): sign-up with an address that already has an account is answered like a
 * sign-up by the server (no "already taken"); the dashboard, whose session then does not
 * open, asks to check the mailbox and stays signed out.
 */
test('signing up with a registered address says to check the e-mail, not that it is taken', async ({ page, request }) => {
  const email = newEmail('taken');
  await registerUser(request, email);
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByText('Check your e-mail to continue. If you already have an account, sign in instead.')).toBeVisible();
  await expect(page.getByText(/already taken/i)).toHaveCount(0);
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto('/fleets');
  await expect(page).toHaveURL(/\/login/);
});
