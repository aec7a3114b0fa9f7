import { usernameFromEmail } from '@flotilla/model';
import { TestSamlIdp } from '@flotilla/server/test-saml-idp';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, registerApiUser } from './support/api';
import { seriousViolations } from './support/axe';
import { watchPageProblems } from './support/csp';
import { arrangeSql } from './support/db';
import { E2E_PORTS } from './support/ports';
import { newEmail, PASSWORD } from './support/users';

/*
 * SAML sign-in (issue 20 item 2; spec 1 §2 /saml*, §8): an organization's identity provider
 * (arranged by SQL: the identity-provider pages have their own spec) with a default team; a new
 * person signs in through the test identity provider, which signs real assertions, and lands
 * signed in, in the organization and its default team. An unknown identifier ends on /login
 * with the error. The test identity provider listens on E2E_PORTS.samlIdp.
 */

let idp: TestSamlIdp;
/**
 * A path on the page's current origin: the identity provider posts back to the server's public
 * URL (http://localhost:…), so the session lives there, not on the tests' 127.0.0.1 baseURL.
 */
const here = (page: Page, path: string) => new URL(path, page.url()).href;
test.beforeAll(async () => {
  idp = await new TestSamlIdp({ port: E2E_PORTS.samlIdp }).start();
});
test.afterAll(async () => {
  await idp?.close();
});

test('a new person signs in with SSO and lands in the organization’s default team', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  const stamp = Date.now().toString(36);
  const sso = `acme-${stamp}`;
  const admin = await registerApiUser(request, newEmail('samladmin'));
  const { id: orgId } = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/organization', { name: `SAML E2E ${stamp}` });
  const { id: teamId } = await apiAs<{ id: number }>(request, admin, 'POST', '/v7/team', { name: 'Field crew', belongs_to__organization: orgId });
  await arrangeSql(
    `WITH p AS (INSERT INTO identity_provider (sso_identifier, entry_point, issuer, certificate) VALUES ($1, $2, $3, $4) RETURNING id)
     INSERT INTO identity_provider_membership (organization, is_authorized_by__identity_provider, grants_access_to__team) SELECT $5, id, $6 FROM p`,
    [sso, idp.ssoUrl, idp.entityId, idp.certificate, orgId, teamId],
  );
  const person = { email: newEmail('samlperson'), name: 'Sam Lee' };
  idp.setUser(person);

  // /saml from the login page's link; the identifier is required.
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await expect(page).toHaveURL(/\/saml$/);
  await expect(page.getByRole('heading', { name: 'Sign in with SSO' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('The SSO identifier is required')).toBeVisible();

  // Off to the identity provider and back, signed in.
  await page.getByLabel('SSO identifier').fill(sso);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/fleets$/, { timeout: 30_000 });
  expect(idp.requests.at(-1)).toMatchObject({ binding: 'redirect', acsUrl: expect.stringMatching(new RegExp(`/auth/saml/${sso}/callback$`)) as unknown });

  // The organization's default team lists the new member.
  await page.goto(here(page, `/orgs/${orgId}/teams/${teamId}/members`));
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(usernameFromEmail(person.email), { timeout: 20_000 });

  // The access tokens tab: a SAML account creates no API keys.
  await page.goto(here(page, '/preferences/access-tokens'));
  await expect(page.getByTestId('saml-api-keys-warning')).toHaveText(/creating API keys is not supported for SAML accounts/);
  await expect(page.getByRole('button', { name: 'Create API key' })).toBeDisabled();
  // The account details' enterprise SSO section lists the SAML account and leads to the identity providers.
  await page.goto(here(page, '/preferences'));
  const section = page.getByRole('region', { name: 'Enterprise SSO' });
  const accounts = section.getByRole('table', { name: 'SAML accounts' });
  await expect(accounts).toContainText(person.email);
  await expect(accounts).toContainText(person.name);
  await expect(section.getByRole('link', { name: 'Identity providers' })).toHaveAttribute('href', '/identity-provider');

  // No console error or CSP violation on the way.
  expect(problems.errors).toEqual([]);
});

// axe is injected as an inline script: these pages' checks run without the CSP (the journey above keeps it).
test.describe('with axe', () => {
  test.use({ bypassCSP: true });

  test('an unknown SSO identifier ends on /login with the error; an existing account is linked by its owner', async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.goto('/saml');
    await expect(page.getByLabel('SSO identifier')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/saml/no-such-identifier');
    await expect(page).toHaveURL(/\/login\?saml_error=/, { timeout: 20_000 });
    await expect(page.getByTestId('saml-sign-in-error')).toHaveText("Unknown SSO identifier 'no-such-identifier'.");

    // /signup shows a saml_error too (spec 1 §2).
    await page.goto('/signup?saml_error=Your%20organization%20has%20no%20seat%20left');
    await expect(page.getByTestId('saml-sign-in-error')).toHaveText('Your organization has no seat left');

    // A callback without its code is a failed sign-in.
    await page.goto('/saml/callback/signon');
    await expect(page.getByTestId('saml-sign-in-error')).toContainText('Single sign-on failed', { timeout: 20_000 });

    // Merge: the identity provider vouches for the e-mail of an existing password account.
    const stamp = Date.now().toString(36);
    const sso = `merge-${stamp}`;
    const owner = await registerApiUser(request, newEmail('samlowner'));
    const { id: orgId } = await apiAs<{ id: number }>(request, owner, 'POST', '/v7/organization', { name: `SAML merge ${stamp}` });
    await arrangeSql(
      `WITH p AS (INSERT INTO identity_provider (sso_identifier, entry_point, issuer, certificate) VALUES ($1, $2, $3, $4) RETURNING id)
       INSERT INTO identity_provider_membership (organization, is_authorized_by__identity_provider) SELECT $5, id FROM p`,
      [sso, idp.entryPointFor({ email: owner.email.toUpperCase() }), idp.entityId, idp.certificate, orgId],
    );
    await page.goto(`/saml/${sso}`);
    await expect(page).toHaveURL(/\/saml\/callback\/merge\?/, { timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'Link your account' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in and link' }).click();
    await expect(page.getByText('Invalid login credentials', { exact: false })).toBeVisible();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in and link' }).click();
    await expect(page).toHaveURL(/\/fleets$/, { timeout: 30_000 });
    await page.goto(here(page, '/preferences'));
    const linked = page.getByRole('region', { name: 'Enterprise SSO' }).getByRole('table', { name: 'SAML accounts' });
    await expect(linked).toContainText(owner.email.toUpperCase());
    // The owner administers the organization the provider authorizes, so reads the provider.
    await expect(linked).toContainText(sso);
    // Linked: signed out, the next sign-in through the provider goes straight in.
    await page.evaluate(() => localStorage.clear());
    await page.goto(here(page, `/saml/${sso}`));
    await expect(page).toHaveURL(/\/fleets$/, { timeout: 30_000 });
  });
});
