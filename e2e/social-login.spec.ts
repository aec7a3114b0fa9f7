import { expect, test } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '@flotilla/server/test-oidc';
import { registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { E2E_PORTS } from './support/ports';
import { startSecondNode, type SecondNode } from './support/second-node';
import { newEmail, PASSWORD } from './support/users';

/*
 * Social login through OpenID Connect (issue 20 item 3; spec 1 §2 /auth/{provider}/callback):
 * a real OpenID provider (oidc-provider, E2E_PORTS.oidcProvider) and a server node configured
 * with it (FLOTILLA_OIDC_PROVIDERS; the shared e2e server has no providers). The provider's
 * login is automatic: whoever `signInAs` named.
 */
test.use({ bypassCSP: true }); // axe is injected as a script

let idp: TestOidcProvider;
let node: SecondNode;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const nodeUrl = `http://127.0.0.1:${E2E_PORTS.server2}`;
  idp = await startOidcProvider({ port: E2E_PORTS.oidcProvider, redirectUris: [`${nodeUrl}/auth/testid/callback`] });
  node = await startSecondNode({
    FLOTILLA_PUBLIC_URL: nodeUrl,
    FLOTILLA_OIDC_PROVIDERS: JSON.stringify([{ id: 'testid', name: 'Test ID', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }]),
  });
});
test.afterAll(async () => {
  await node?.stop();
  await idp?.close();
});

let n = 0;
const remote = (tag: string) => {
  n++;
  return { sub: `e2e-${tag}-${Date.now()}-${n}`, email: newEmail(`social_${tag}`), email_verified: true, name: `Social ${tag} ${n}` };
};

test('a new person signs in through the provider from the login page and lands on the dashboard; the account lists the link', async ({ page }) => {
  const person = remote('signin');
  idp.signInAs(person);
  await page.goto(`${node.baseURL}/login`);
  const button = page.getByRole('link', { name: 'Sign in with Test ID' });
  await expect(button).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await button.click();
  await expect(page).toHaveURL(/\/fleets$/, { timeout: 60_000 });
  await page.goto(`${node.baseURL}/preferences`);
  const table = page.getByRole('table', { name: 'Linked social accounts' });
  await expect(table.getByRole('row', { name: new RegExp(`${person.name}.*Test ID`) })).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(page, ['section[aria-label="Linked social accounts"]'])).toEqual([]);
});

test('a callback whose state is not one this browser started shows the request error with its status on /login', async ({ page }) => {
  await page.goto(`${node.baseURL}/auth/testid/callback?code=made-up&state=forged`);
  await expect(page).toHaveURL(/\/login\?social_error=/, { timeout: 60_000 });
  await expect(page.getByTestId('social-sign-in-error')).toHaveText('Sign-in through Test ID failed (400): This sign-in has expired or was already used. Start again.');
  expect(await seriousViolations(page)).toEqual([]);
});

test('a password user links the provider in preferences (the row appears) and unlinks it after confirming (the row goes)', async ({ page, request }) => {
  const user = await registerApiUser(request, newEmail('social_link'));
  // Signed in on the configured node (the token is stored where the dashboard's SDK keeps it).
  const res = await page.request.post(`${node.baseURL}/login_`, { data: { username: user.email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  const token = await res.text();
  await page.goto(`${node.baseURL}/ping`);
  await page.evaluate((value) => window.localStorage.setItem('balena-token', value), token);
  await page.goto(`${node.baseURL}/preferences`);
  const section = page.getByRole('region', { name: 'Linked social accounts' });
  await expect(section.getByText('No social accounts are linked to your account. Link one to sign in with it.')).toBeVisible({ timeout: 30_000 });

  const person = remote('link');
  idp.signInAs(person);
  await section.getByRole('button', { name: 'Link Test ID', exact: true }).click();
  await expect(page).toHaveURL(/\/preferences$/, { timeout: 60_000 });
  await expect(page.getByText('Test ID is now linked to your account')).toBeVisible({ timeout: 30_000 });
  const row = section.getByRole('row', { name: new RegExp(`${person.name}.*Test ID`) });
  await expect(row).toBeVisible();
  // Linked: no second link button for it.
  await expect(section.getByRole('button', { name: 'Link Test ID', exact: true })).toHaveCount(0);
  // The section (the success toast is still fading in over the page).
  expect(await seriousViolations(page, ['section[aria-label="Linked social accounts"]'])).toEqual([]);

  await row.getByRole('button', { name: 'Unlink Test ID' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unlink Test ID?' });
  await expect(dialog).toContainText(person.name);
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Unlink' }).click();
  await expect(page.getByText('Test ID unlinked')).toBeVisible({ timeout: 30_000 });
  await expect(row).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Link Test ID', exact: true })).toBeVisible();
});
