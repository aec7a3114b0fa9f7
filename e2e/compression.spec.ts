import { expect, test, type Response } from '@playwright/test';
import { watchPageProblems } from './support/csp';
import { newEmail, registerUser, signIn } from './support/users';

/*
 * Issue 11 item 2: a newcomer's first load of /fleets. Chromium asks for gzip and brotli, so
 * the dashboard's code arrives brotli-compressed (pre-compressed at build time) and the page
 * still runs under its CSP.
 */
test('the first load of /fleets gets its HTML, JavaScript and CSS brotli-compressed', async ({ page, browser, baseURL }) => {
  const email = newEmail('compressed');
  await registerUser(page.request, email);
  await signIn(page, email);

  // A first load: a new context (empty cache) with the signed-in session.
  const context = await browser.newContext({ baseURL, storageState: await page.context().storageState() });
  const fresh = await context.newPage();
  const problems = await watchPageProblems(fresh);
  const code: Response[] = [];
  fresh.on('response', (response) => {
    if (/^(text\/html|text\/javascript|text\/css)/.test(response.headers()['content-type'] ?? '')) code.push(response);
  });
  await fresh.goto('/fleets', { waitUntil: 'networkidle' });
  await expect(fresh.getByRole('heading', { name: "You don't have any fleets yet" })).toBeVisible();

  expect(code.filter((r) => new URL(r.url()).pathname.startsWith('/assets/')).length).toBeGreaterThan(3);
  let wire = 0;
  let decoded = 0;
  for (const response of code) {
    const headers = await response.allHeaders();
    expect(response.status(), response.url()).toBe(200);
    const body = await response.body();
    // A file of a few bytes stays as it is (its brotli form would not be smaller).
    if (body.length >= 200) {
      expect(headers['content-encoding'], response.url()).toBe('br');
      expect(headers.vary, response.url()).toContain('Accept-Encoding');
    }
    wire += (await response.request().sizes()).responseBodySize;
    decoded += body.length;
  }
  expect(wire / decoded).toBeLessThan(0.4);
  expect(problems.errors).toEqual([]);
  await context.close();
});
