import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs, registerApiUser, type ApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { createApplication } from './support/fleets';
import { E2E_PORTS } from './support/ports';
import { startSecondNode, type SecondNode } from './support/second-node';
import { newEmail, PASSWORD, registerUser, submitLogin } from './support/users';

/*
 * Issue 19, the dashboard's platform behaviour (spec 3 §4, §8, §9), on a server process of its
 * own (support/second-node.ts on E2E_PORTS.connectivityNode, the e2e database and bus) so that
 * stopping it leaves the other specs' server alone: the offline banner and the queued read,
 * the throttling banner of a 429, and the session check across tabs.
 */

test.use({ bypassCSP: true }); // axe is injected as an inline script (support/axe.ts)

let node: SecondNode | undefined;
const base = () => `http://127.0.0.1:${E2E_PORTS.connectivityNode}`;
const PREFERENCES_CHUNK = /\/assets\/preferences-[^/]*\.js$/;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  node = await startSecondNode({}, E2E_PORTS.connectivityNode);
});
test.afterAll(async () => {
  await node?.stop();
});

/** A client-side navigation (React Router listens to popstate): no page load, no chunk fetched again. */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** A new user signed in on this spec's server, on /fleets. */
async function signedIn(page: Page, request: APIRequestContext, label: string): Promise<ApiUser> {
  const user = await registerApiUser(request, newEmail(label));
  await page.goto(`${base()}/login`);
  await submitLogin(page, user.email);
  await expect(page).toHaveURL(/\/fleets$/);
  return user;
}

/** The page's console messages that report a chunk failure, as `type: text` (the page logs them). */
function chunkFailureConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (msg) => {
    if (/Loading chunk failed|failed to load; the page reloads/.test(msg.text())) seen.push(`${msg.type()}: ${msg.text().split('\n')[0]}`);
  });
  return seen;
}

/** The preferences page's module: its first `failures` downloads fail; counts the requests. */
async function failPreferencesChunk(page: Page, failures: number): Promise<{ requests: () => number; restore: () => Promise<void> }> {
  let requests = 0;
  await page.route(PREFERENCES_CHUNK, (route) => (++requests <= failures ? route.abort('internetdisconnected') : route.continue()));
  return { requests: () => requests, restore: () => page.unroute(PREFERENCES_CHUNK) };
}

test('the API going away raises the offline banner; when it is back the banner goes and the page opened meanwhile loads', async ({ page, request }) => {
  test.setTimeout(240_000);
  const user = await registerApiUser(request, newEmail('offline'));
  const first = await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name: `offline-a-${Date.now()}` });
  await createApplication(request, user, first.id, 'before-the-outage', 'fleet');

  await page.goto(`${base()}/login`);
  await submitLogin(page, user.email);
  await expect(page).toHaveURL(/\/fleets$/);
  // The organization's fleet list once, so its page module is loaded before the outage.
  await navigateInApp(page, `/orgs/${first.id}/fleets`);
  await expect(page.getByRole('link', { name: 'before-the-outage' }).first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Fleets' }).click();
  await expect(page).toHaveURL(/\/fleets$/);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  // The server stops. The fleet list polls, its reads fail, the pings fail: offline.
  await node!.stop();
  const offline = page.getByRole('alert').filter({ hasText: 'Cannot reach the Flotilla API' });
  await expect(offline).toBeVisible({ timeout: 60_000 });
  expect(await seriousViolations(page, ['[role="alert"]'])).toEqual([]);
  // Retry probes at once; the API is still away, so the banner stays.
  await offline.getByRole('button', { name: 'Retry' }).click();
  await expect(offline).toBeVisible();

  // Meanwhile another organization gets a fleet (through the other server, same database), and
  // the user opens its fleet list: the read waits instead of failing.
  const second = await apiAs<{ id: number }>(request, user, 'POST', '/v7/organization', { name: `offline-b-${Date.now()}` });
  await createApplication(request, user, second.id, 'made-during-the-outage', 'fleet');
  await navigateInApp(page, `/orgs/${second.id}/fleets`);
  await page.waitForTimeout(3_000);
  await expect(page.getByRole('link', { name: 'made-during-the-outage' })).toHaveCount(0);
  await expect(offline).toBeVisible();

  // The server is back: a probe answers, the banner goes, and the waiting read completes.
  node = await startSecondNode({}, E2E_PORTS.connectivityNode);
  await expect(offline).toBeHidden({ timeout: 60_000 });
  await expect(page.getByRole('link', { name: 'made-during-the-outage' }).first()).toBeVisible({ timeout: 30_000 });
  // All without a page load.
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('a 429 shows the throttling banner for Retry-After seconds, then it goes', async ({ page, request }) => {
  const email = newEmail('throttled');
  await registerUser(request, email);
  // The login throttle (spec 1 §9): 10 failures lock the account with 429 and Retry-After.
  for (let i = 0; i < 10; i += 1) {
    await request.post(`${base()}/login_`, { data: { username: email, password: 'wrong-password' } });
  }
  await page.clock.install();
  await page.goto(`${base()}/login`);
  const answer = page.waitForResponse((r) => r.url().endsWith('/login_') && r.status() === 429);
  await submitLogin(page, email);
  const retryAfter = Number((await answer).headers()['retry-after']);
  expect(retryAfter).toBeGreaterThan(60);

  const banner = page.getByRole('status').filter({ hasText: 'The Flotilla API is throttling requests' });
  await expect(banner).toBeVisible();
  // An info banner, not an error toast; the form says what happened to the login.
  await expect(page.getByText('Too Many Requests. Try again later')).toBeVisible();
  expect(await seriousViolations(page, ['[role="status"]'])).toEqual([]);

  // Still there a little before Retry-After has passed …
  await page.clock.fastForward((retryAfter - 30) * 1000);
  await expect(banner).toBeVisible();
  // … and gone after it.
  await page.clock.fastForward(60_000);
  await expect(banner).toBeHidden();
});

test('signing out in another tab signs this tab out within seconds', async ({ page, context, request }) => {
  const user = await signedIn(page, request, 'tabs');

  const other = await context.newPage();
  await other.goto(`${base()}/fleets`);
  await expect(other).toHaveURL(/\/fleets$/);
  await other.getByRole('button', { name: new RegExp(`^${user.username.slice(0, 12)}`) }).click();
  await other.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(other).toHaveURL(/\/login$/);

  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  await expect(page.getByText('You were signed out: You signed out in another tab or window')).toBeVisible();
});

test('a session revoked on the server ("log out from other sessions" elsewhere) signs an idle tab out within seconds', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await signedIn(page, request, 'revoked');
  // Another device signs in and logs out every other session: this tab's token is revoked.
  const login = await request.post(`${base()}/login_`, { data: { username: user.email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const elsewhere = (await login.text()).trim();
  const revoke = await request.post(`${base()}/user/v1/logout-others`, { headers: { Authorization: `Bearer ${elsewhere}` } });
  expect(revoke.status(), await revoke.text()).toBeLessThan(300);
  // The tab sends nothing else meanwhile; its server check (every 15 s) finds out.
  await expect(page).toHaveURL(/\/login$/, { timeout: 40_000 });
  await expect(page.getByText('Your session has expired')).toBeVisible();
});

test('a page module that fails to load once loads by itself: the page reloads once and shows it', async ({ page, request }) => {
  await signedIn(page, request, 'chunk-once');
  const logged = chunkFailureConsole(page);
  // The preferences page's module fails once (a dropped connection, the host's network changing).
  const chunk = await failPreferencesChunk(page, 1);
  await page.evaluate(() => ((window as unknown as { beforeReload?: boolean }).beforeReload = true));
  await navigateInApp(page, '/preferences');
  // No click: one reload of the page (a new document, whose import is not the failed one) loads it.
  await expect(page.getByRole('heading', { level: 1, name: 'Preferences' })).toBeVisible({ timeout: 30_000 });
  expect(chunk.requests()).toBe(2);
  expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).toBeUndefined();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(0);
  // A failure the reload healed is a warning, not an error (error watchers must not count it).
  expect(logged).toEqual([expect.stringMatching(/^warning: Part of the dashboard failed to load; the page reloads once/)]);
});

test('a page whose module cannot be loaded reloads once, then offers a reload instead of the error page', async ({ page, request }) => {
  await signedIn(page, request, 'chunk');
  const logged = chunkFailureConsole(page);
  // The preferences page's module fails to download (a new build replaced it, the network dropped).
  const chunk = await failPreferencesChunk(page, Infinity);
  await navigateInApp(page, '/preferences');
  // One reload by itself; the chunk fails again, and the page does not reload in a loop.
  const offer = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
  await expect(offer).toBeVisible({ timeout: 30_000 });
  expect(chunk.requests()).toBe(2);
  // The first failure warns (a reload follows); the one that ends at the offer is an error.
  expect(logged).toEqual([expect.stringMatching(/^warning: /), expect.stringMatching(/^error: Error: Loading chunk failed/)]);
  await chunk.restore();
  await offer.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Preferences' })).toBeVisible({ timeout: 30_000 });
});

test('a start-up that fails says so, and tries again by itself 10 s later', async ({ page, request }) => {
  await signedIn(page, request, 'startup');
  // The session bootstrap (whoami) gets no answer on the next load.
  await page.route(/\/actor\/v1\/whoami$/, (route) => route.abort());
  await page.reload();
  // The full-page failure, with its button and the retry announced …
  const failure = page.getByRole('alert').filter({ hasText: 'Trying again in 10 seconds.' });
  await expect(failure).toBeVisible({ timeout: 30_000 });
  await expect(failure).toContainText('The dashboard could not start: Could not reach the server');
  await expect(failure.getByRole('button', { name: 'Try again' })).toBeVisible();
  // … and the error toast.
  await expect(page.getByRole('alert').filter({ hasNotText: 'Trying again' }).filter({ hasText: 'The dashboard could not start: Could not reach the server' })).toBeVisible();
  await page.unroute(/\/actor\/v1\/whoami$/);
  // No click: the retry comes on its own.
  await expect(page.getByRole('heading', { level: 1, name: 'Fleets' })).toBeVisible({ timeout: 30_000 });
  await expect(failure).toBeHidden();
});
