import { expect, test } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { watchPageProblems } from './support/csp';
import { PLATFORM_ADMIN } from './support/outbox';
import { newEmail, signUp, submitLogin } from './support/users';

/*
 * The provider staff area (spec 1 §6–§7, spec 3 §6): the admin link and banners, the mail
 * outbox at /admin, and admin login-as (PATCH /login_).
 */

test('the platform administrator reads the mail outbox and logs in as a user', async ({ page, request }) => {
  const problems = await watchPageProblems(page);
  const owner = await registerApiUser(request, newEmail('adminowner'));
  const inviteeEmail = newEmail('admininvitee');
  const { id: orgId } = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/organization', { name: `Admin E2E ${Date.now().toString(36)}` });
  await apiAs(request, owner, 'POST', '/v7/invitee__is_invited_to__organization', {
    invitee: inviteeEmail,
    is_invited_to__organization: orgId,
    roleName: 'member',
  });

  await page.goto('/login');
  await submitLogin(page, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password);
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByText('You are signed in with a provider administrator account.')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();

  // The invitation the test caused is in the outbox; its row opens the text body.
  const outbox = page.getByRole('table', { name: 'Mail outbox' });
  const row = outbox.getByRole('row').filter({ hasText: inviteeEmail });
  await expect(row).toHaveCount(1);
  // The e2e server delivers over SMTP (to the sink): the row turns from queued to sent.
  await expect(row).toContainText('Sent', { timeout: 15_000 });
  await row.getByRole('button').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('mail-text-body')).toContainText('/organization/invitation/');
  await expect(dialog).toContainText(`To ${inviteeEmail}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Login-as: the server's errors as given, then the user's dashboard with the banner.
  const username = page.getByLabel('Username');
  await username.fill('nobody_has_this_username');
  await page.getByRole('button', { name: 'Log in as user' }).click();
  await expect(page.getByRole('alert')).toHaveText('User not found');
  await username.fill(owner.username);
  await page.getByRole('button', { name: 'Log in as user' }).click();
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByText(`Signed in as ${owner.username} by an administrator`)).toBeVisible();
  await expect(page.getByText('You are signed in with a provider administrator account.')).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await expect(page.getByTestId('header-username')).toHaveText(owner.username.slice(0, 20));

  // The banner's Sign out ends the login-as session.
  await page.getByRole('status').filter({ hasText: 'by an administrator' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(problems.errors.filter((e) => !e.startsWith('console: Failed to load resource'))).toEqual([]);
});

test('an ordinary user sees no admin link and /admin shows the staff-only state', async ({ page }) => {
  await signUp(page, newEmail('adminordinary'));
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Fleets' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await expect(page.getByText('You are signed in with a provider administrator account.')).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByText('You need provider staff access to view this page')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Mail outbox' })).toHaveCount(0);
  await expect(page.getByLabel('Username')).toHaveCount(0);
});
