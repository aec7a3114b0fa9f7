import { expect, test } from '@playwright/test';
import { watchPageProblems } from './support/csp';
import { chooseDeviceType } from './support/fleets';
import { newEmail, PASSWORD, registerUser, submitLogin } from './support/users';

/*
 * Issue "Foundation": the dashboard shell end to end — sign-up, organizations, fleets,
 * sign-out and the route guards of spec 1 §2 — against the real server.
 */

test('a new user signs up, creates an organization and a fleet in it, signs out and is sent back after login', async ({ page }) => {
  const email = newEmail('journey');
  const stamp = Date.now().toString(36);
  const orgName = `Acme E2E ${stamp}`;
  const fleetName = `fleet-${stamp}`;

  // Sign up lands on an empty, helpful /fleets.
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByRole('heading', { name: "You don't have any fleets yet" })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Read the fleet documentation' })).toBeVisible();

  // The header shows at most 20 characters of the username (spec 1 §9).
  const userMenu = page.getByRole('button', { name: /^e2e_journey/ });
  const shownName = (await userMenu.innerText()).trim();
  expect(shownName.length).toBeLessThanOrEqual(20);
  expect(email.split('@')[0]!.startsWith(shownName)).toBe(true);

  // Create an organization on /orgs.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Organizations' }).click();
  await expect(page).toHaveURL(/\/orgs$/);
  await page.getByRole('button', { name: 'Create organization' }).click();
  const orgDialog = page.getByRole('dialog', { name: 'Create organization' });
  await orgDialog.getByLabel('Organization name').fill(orgName);
  await orgDialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(orgDialog).toBeHidden();
  const orgs = page.getByRole('table', { name: 'Organizations' });
  await expect(orgs.getByRole('row').filter({ hasText: orgName })).toContainText('Administrator');

  // Names are unique case-insensitively: the server's 409 reads "This name is already used".
  await page.getByRole('button', { name: 'Create organization' }).click();
  await orgDialog.getByLabel('Organization name').fill(orgName.toUpperCase());
  await orgDialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(orgDialog.getByText('This name is already used')).toBeVisible();
  await orgDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(orgDialog).toBeHidden();

  // Create a fleet in it from the empty state.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Fleets' }).click();
  await expect(page).toHaveURL(/\/fleets$/);
  await page.getByRole('button', { name: 'Create fleet' }).click();
  const fleetDialog = page.getByRole('dialog', { name: 'Create fleet' });
  await fleetDialog.getByLabel('Organization').selectOption({ label: orgName });
  // Name rules show while typing.
  await fleetDialog.getByLabel('Fleet name').fill('ab');
  await expect(fleetDialog.getByText('The name must be at least 4 characters long')).toBeVisible();
  await fleetDialog.getByLabel('Fleet name').fill('bad name!');
  await expect(fleetDialog.getByText('The name may only contain letters, digits, hyphens and underscores')).toBeVisible();
  await fleetDialog.getByLabel('Fleet name').fill(fleetName);
  await chooseDeviceType(fleetDialog, 'Raspberry Pi 4 (using 64bit OS)');
  await fleetDialog.getByRole('button', { name: 'Create fleet' }).click();
  await expect(fleetDialog).toBeHidden();
  // Creating opens the new fleet (spec 2 §2); the list is one click away.
  await expect(page).toHaveURL(/\/fleets\/\d+$/);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Fleets' }).click();

  // It is listed with its organization and device type.
  const row = page.getByRole('table', { name: 'Fleets' }).getByRole('row').filter({ hasText: fleetName });
  await expect(row).toContainText(orgName);
  await expect(row).toContainText('Raspberry Pi 4 (using 64bit OS)');
  await expect(page.getByRole('heading', { name: "You don't have any fleets yet" })).toBeHidden();

  // Sign out.
  await userMenu.click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // A protected page sends the anonymous user to /login and back after login.
  await page.goto('/orgs');
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/orgs$/);
  await expect(page.getByRole('table', { name: 'Organizations' })).toContainText(orgName);
});

test('/login?redirect=/orgs goes to /orgs after signing in', async ({ page, request }) => {
  const email = newEmail('redirect');
  await registerUser(request, email);
  await page.goto('/login?redirect=/orgs');
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/orgs$/);
  await expect(page.getByRole('heading', { name: 'Organizations', exact: true })).toBeVisible();
});

test('a signed-in user visiting /login goes to the dashboard', async ({ page, request }) => {
  const email = newEmail('public');
  await registerUser(request, email);
  await page.goto('/login');
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/fleets$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/fleets$/);
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/fleets$/);
});

test('wrong credentials show "Invalid login credentials"', async ({ page, request }) => {
  const email = newEmail('badpass');
  await registerUser(request, email);
  await page.goto('/login');
  await submitLogin(page, email, 'not-the-password');
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('too many failed logins show "Too Many Requests. Try again later"', async ({ page, request }) => {
  const email = newEmail('throttle');
  await registerUser(request, email);
  // The server locks a username after 10 failures (spec 1 §9 / LOGIN_MAX_FAILURES).
  for (let i = 0; i < 10; i += 1) {
    await request.post('/login_', { data: { username: email, password: 'wrong-password' } });
  }
  await page.goto('/login');
  await submitLogin(page, email);
  await expect(page.getByText('Too Many Requests. Try again later')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('signup keeps its query: email prefills the form and redirect is honoured', async ({ page }) => {
  const email = newEmail('prefill');
  await page.goto(`/signup?email=${encodeURIComponent(email)}&redirect=/orgs`);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  // The link to the login page carries the same query.
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', /redirect=%2Forgs|redirect=\/orgs/);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/orgs$/);
});

test('the not-found page has a "Go home" button that leads to /', async ({ page, request }) => {
  const email = newEmail('notfound');
  await registerUser(request, email);
  await page.goto('/login');
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/fleets$/);

  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Go home' }).click();
  // "/" redirects to /fleets (spec 1 §2).
  await expect(page).toHaveURL(/\/fleets$/);
});

test('the sidebar collapses to 56 px and opens to 220 px from the keyboard', async ({ page, request }) => {
  const email = newEmail('sidebar');
  await registerUser(request, email);
  await page.goto('/login');
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/fleets$/);

  const sidebar = page.locator('#app-sidebar .MuiDrawer-paper');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(220);
  await page.getByRole('button', { name: 'Collapse sidebar' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(56);
  // Collapsed, the links keep their names.
  await expect(page.getByRole('link', { name: 'Organizations' })).toBeVisible();
  await page.getByRole('button', { name: 'Expand sidebar' }).focus();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(220);
});

test('pages load without CSP violations or errors under the server policy', async ({ page, request }) => {
  const problems = await watchPageProblems(page);
  const email = newEmail('csp');
  await registerUser(request, email);

  const response = await page.goto('/login');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await submitLogin(page, email);
  await expect(page).toHaveURL(/\/fleets$/);
  await expect(page.getByRole('heading', { name: 'Fleets', exact: true })).toBeVisible();
  // Lazy chunks (the dialog) load under the policy too.
  await page.getByRole('button', { name: 'Create fleet' }).click();
  await expect(page.getByRole('dialog', { name: 'Create fleet' }).getByLabel('Device type')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.goto('/orgs');
  await expect(page.getByRole('table', { name: 'Organizations' })).toBeVisible();

  expect(problems.errors).toEqual([]);
});
