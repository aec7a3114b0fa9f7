import { expect, test, type Page } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { watchPageProblems } from './support/csp';
import { newEmail, signIn } from './support/users';

/*
 * Issue 11 item 8: every signed-in page keeps the app shell (header and sidebar), the
 * preferences pages included; unknown routes, /orgs/{id}/credits and /support are pages
 * inside the shell; the Appearance tab lives at /preferences/appearance (the old
 * /preferences/experimental redirects there) and "Save colour" waits for a change.
 */

const shellOf = (page: Page) => ({
  nav: page.getByRole('navigation', { name: 'Main navigation' }),
  appBar: page.getByTestId('app-bar'),
});

test('preferences, an unknown route, /orgs/{id}/credits and /support all keep the header and the sidebar', async ({ page, request }) => {
  const problems = await watchPageProblems(page);
  const user = await registerApiUser(request, newEmail('shell'));
  const { id: orgId } = await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name: `Shell E2E ${Date.now().toString(36)}` });
  await signIn(page, user.email);
  const { nav, appBar } = shellOf(page);

  for (const path of ['/preferences', '/preferences/sshkeys', '/preferences/appearance']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Preferences' })).toBeVisible();
    await expect(nav).toBeVisible();
    await expect(appBar).toBeVisible();
  }
  await expect(page.getByRole('tab', { name: 'Appearance', selected: true })).toBeVisible();
  // The old path of the Appearance tab still works.
  await page.goto('/preferences/experimental');
  await expect(page).toHaveURL(/\/preferences\/appearance$/);
  await expect(page.getByRole('tab', { name: 'Appearance', selected: true })).toBeVisible();

  // Not found: inside the shell, with the way home.
  await page.goto('/no-such-page/here');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(nav).toBeVisible();
  await expect(appBar).toBeVisible();
  await page.getByRole('button', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/fleets$/);

  // Credits: a page that says what is there, not a bare 404.
  await page.goto(`/orgs/${orgId}/credits`);
  await expect(page.getByRole('heading', { level: 1, name: 'Credits' })).toBeVisible();
  await expect(page.getByText('Credits are not available on this installation: billing is not configured.')).toBeVisible();
  await expect(nav).toBeVisible();
  await expect(page.getByText('Page not found')).toHaveCount(0);

  // Support (issue 19): the support menu with the documentation, and for this unverified user the way to verify before filing a ticket.
  await page.goto('/support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await expect(page.getByText('Private support needs a verified email address. Verify yours to open a ticket.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('navigation', { name: 'Support menu' }).getByRole('link', { name: 'Search the documentation' })).toHaveAttribute('href', '/docs/');
  await expect(nav).toBeVisible();
  expect(problems.errors).toEqual([]);
});

test('signed out, an unknown route is still a not-found page with the way home', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
});

test('appearance: "Save colour" is enabled only when the colour differs from the saved one', async ({ page, request }) => {
  const user = await registerApiUser(request, newEmail('savecolour'));
  await signIn(page, user.email);
  await page.goto('/preferences/appearance');
  const save = page.getByRole('button', { name: 'Save colour' });
  const colour = page.getByLabel('Header colour');
  await expect(colour).toBeEnabled();
  await expect(save).toBeDisabled();
  await colour.fill('#aa3355');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Appearance saved').first()).toBeVisible();
  await expect(save).toBeDisabled();
  await colour.fill('#112233');
  await expect(save).toBeEnabled();
  await colour.fill('#aa3355');
  await expect(save).toBeDisabled();
});
