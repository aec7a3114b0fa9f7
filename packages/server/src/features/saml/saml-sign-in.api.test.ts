import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { insertIdentityProvider, insertTeam } from '../../../test/support/identity-providers.js';
import { generateSigningCredentials, tamper, TestSamlIdp, startTestSamlIdp, type ResponseOptions, type SamlUser } from '../../../test/support/saml-idp.js';
import { EMAIL_MISMATCH, INVALID_LOGIN_CODE, LOGIN_CODE_LIFETIME_MS, MERGE_REQUIRES_LOGIN, UNKNOWN_SSO_IDENTIFIER, serviceProviderUrls } from './saml-sign-in.js';
import { SAML_NO_API_KEYS, SAML_NO_PASSWORD } from './index.js';
import { SAML_OFF } from './saml.routes.js';
import { hashSecret, newSecret } from '../account-recovery/tokens.js';

let t: TestApp;
let url: string;
let idp: TestSamlIdp;
let owner: SignedUpUser;
let outsider: SignedUpUser;
let teamId: number;
const SSO = 'acme-sso';
let sp: { entityId: string; acsUrl: string };

/** The app's clock runs ahead by this much (login codes are dated by it). */
let clockOffset = 0;

beforeAll(async () => {
  t = await buildTestApp({ clock: () => Date.now() + clockOffset });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  idp = await startTestSamlIdp();
  owner = await signUp(t.app);
  outsider = await signUp(t.app);
  teamId = await insertTeam(t.db, owner.orgId, 'Field engineers');
  await insertIdentityProvider(t.db, { ssoIdentifier: SSO, entryPoint: idp.ssoUrl, issuer: idp.entityId, certificate: idp.certificate }, [
    { organization: owner.orgId, team: teamId },
  ]);
  sp = serviceProviderUrls(t.app.mailer.publicUrl, SSO);
});
afterAll(async () => {
  await idp?.close();
  await t?.close();
});

let counter = 0;
const newUser = (): SamlUser => ({ email: `saml${++counter}_${process.pid}@corp.example.com`, name: `Saml Person${counter}` });

/** GET /auth/saml/{sso}: the provider's URL with our AuthnRequest. */
async function begin(sso = SSO): Promise<{ location: string; requestId: string }> {
  const res = await fetch(`${url}/auth/saml/${sso}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  const request = TestSamlIdp.parseAuthnRequest(new URL(location).searchParams.get('SAMLRequest')!, 'redirect');
  return { location, requestId: request.id };
}

/** The browser at the provider: its auto-submitting form's SAMLResponse. */
async function atProvider(location: string, user: SamlUser): Promise<{ samlResponse: string; action: string }> {
  const query = new URLSearchParams({ email: user.email, ...(user.name ? { name: user.name } : {}) });
  const html = await (await fetch(`${location}&${query}`)).text();
  return { samlResponse: /name="SAMLResponse" value="([^"]+)"/.exec(html)![1]!, action: /<form method="post" action="([^"]+)"/.exec(html)![1]! };
}

/** The provider's form post to our ACS; answers where the browser is sent. */
async function postToAcs(samlResponse: string, sso = SSO): Promise<URL> {
  const res = await fetch(`${url}/auth/saml/${sso}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!, url);
}
const encode = (xml: string) => Buffer.from(xml).toString('base64');

const finalize = (body: Record<string, unknown>) =>
  fetch(`${url}/auth/saml/finalize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A whole sign-in through the provider: the redirect the browser lands on. */
async function signInThroughProvider(user: SamlUser): Promise<URL> {
  const { location } = await begin();
  const { samlResponse, action } = await atProvider(location, user);
  expect(action).toBe(sp.acsUrl);
  return postToAcs(samlResponse);
}

async function userIdOf(email: string): Promise<number | undefined> {
  return (await t.db.query<{ id: number }>('SELECT id FROM "user" WHERE lower(email) = lower($1)', [email])).rows[0]?.id;
}

describe('SAML sign-in', () => {
  it('creates the user just in time, in the provider organization and default team; the token works with balena-sdk', async () => {
    const user = newUser();
    const landing = await signInThroughProvider(user);
    expect(landing.pathname).toBe('/saml/callback/signon');
    const code = landing.searchParams.get('code');
    expect(code).toBeTruthy();
    expect(idp.requests.at(-1)).toMatchObject({ acsUrl: sp.acsUrl, issuer: sp.entityId, binding: 'redirect' });

    const res = await finalize({ code });
    expect(res.status).toBe(200);
    const token = await res.text();
    const sdk = sdkClient(url);
    await sdk.auth.loginWithToken(token);
    const me = await sdk.auth.whoami();
    expect(me).toMatchObject({ actorType: 'user', email: user.email });

    const userId = (await userIdOf(user.email))!;
    const row = (await t.db.query('SELECT password, has_password_set, is_verified FROM "user" WHERE id = $1', [userId])).rows[0];
    expect(row).toEqual({ password: null, has_password_set: false, is_verified: true });
    const accounts = await t.db.query('SELECT remote_id, display_name FROM saml_account WHERE belongs_to__user = $1', [userId]);
    expect(accounts.rows).toEqual([{ remote_id: user.email, display_name: user.name }]);
    const orgs = await t.db.query<{ org: number; role: string }>(
      `SELECT m.is_member_of__organization AS org, r.name AS role FROM organization_membership m JOIN organization_membership_role r ON r.id = m.organization_membership_role
        WHERE m."user" = $1 ORDER BY 1`,
      [userId],
    );
    expect(orgs.rows).toContainEqual({ org: owner.orgId, role: 'member' });
    expect(orgs.rows.map((r) => r.org)).not.toContain(outsider.orgId);
    expect((await t.db.query('SELECT is_member_of__team FROM team_membership WHERE "user" = $1', [userId])).rows).toEqual([{ is_member_of__team: teamId }]);
    // The user reads their own SAML account through the API (balena-sdk); nobody else reads it.
    const own = await sdk.pine.get({ resource: 'saml_account', options: { $select: ['remote_id'], $filter: { belongs_to__user: userId } } });
    expect(own).toEqual([{ remote_id: user.email }]);
    const others = await fetch(`${url}/v7/saml_account?$select=id&$filter=belongs_to__user eq ${userId}`, { headers: { authorization: `Bearer ${outsider.token}` } });
    expect(others.status).toBe(200);
    expect(((await others.json()) as { d: unknown[] }).d).toEqual([]);
    const write = await fetch(`${url}/v7/saml_account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${outsider.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ belongs_to__user: outsider.userId, was_generated_by__identity_provider: 1, remote_id: 'forged' }),
    });
    expect(write.status).toBeGreaterThanOrEqual(400);
    expect((await t.db.query(`SELECT 1 FROM saml_account WHERE remote_id = 'forged'`)).rowCount).toBe(0);
    // Through the API too: the organization's member sees the team and the new member in it.
    const teams = await sdk.pine.get({ resource: 'team', options: { $select: ['name'], $filter: { id: teamId } } });
    expect(teams).toEqual([{ name: 'Field engineers' }]);

    // The code is single use.
    expect((await finalize({ code })).status).toBe(400);
  });

  it('a login code expires after 2 minutes', async () => {
    const landing = await signInThroughProvider(newUser());
    clockOffset = LOGIN_CODE_LIFETIME_MS + 1_000;
    try {
      const res = await finalize({ code: landing.searchParams.get('code') });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(INVALID_LOGIN_CODE);
    } finally {
      clockOffset = 0;
    }
    // Just inside the lifetime it works.
    const next = await signInThroughProvider(newUser());
    clockOffset = LOGIN_CODE_LIFETIME_MS - 5_000;
    try {
      expect((await finalize({ code: next.searchParams.get('code') })).status).toBe(200);
    } finally {
      clockOffset = 0;
    }
  });

  it('a second sign-in reuses the SAML account', async () => {
    const user = newUser();
    const first = await signInThroughProvider(user);
    await finalize({ code: first.searchParams.get('code') });
    const userId = await userIdOf(user.email);
    const second = await signInThroughProvider(user);
    expect(second.pathname).toBe('/saml/callback/signon');
    const token = await (await finalize({ code: second.searchParams.get('code') })).text();
    const sdk = sdkClient(url);
    await sdk.auth.loginWithToken(token);
    expect(await sdk.auth.getUserInfo()).toMatchObject({ id: userId });
    expect((await t.db.query('SELECT 1 FROM saml_account WHERE belongs_to__user = $1', [userId])).rowCount).toBe(1);
    expect((await t.db.query('SELECT 1 FROM "user" WHERE lower(email) = lower($1)', [user.email])).rowCount).toBe(1);
  });

  it('an existing account with the e-mail is merged only by its signed-in owner (e-mails compared case-insensitively)', async () => {
    const existing = await signUp(t.app, `merge_${process.pid}@corp.example.com`);
    const landing = await signInThroughProvider({ email: existing.email.toUpperCase(), name: 'Merge Me' });
    expect(landing.pathname).toBe('/saml/callback/merge');
    expect(landing.searchParams.get('shouldMergeWith')).toBe(existing.email);
    const code = landing.searchParams.get('code');
    // Nothing linked or created yet.
    expect((await t.db.query('SELECT 1 FROM saml_account WHERE belongs_to__user = $1', [existing.userId])).rowCount).toBe(0);

    const noLogin = await finalize({ code });
    expect(noLogin.status).toBe(401);
    expect(await noLogin.text()).toContain(MERGE_REQUIRES_LOGIN);
    const mismatch = await finalize({ code, jwt: outsider.token });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain(EMAIL_MISMATCH);
    expect((await t.db.query('SELECT 1 FROM saml_account WHERE belongs_to__user = $1', [outsider.userId])).rowCount).toBe(0);

    const res = await finalize({ code, jwt: existing.token });
    expect(res.status).toBe(200);
    const sdk = sdkClient(url);
    await sdk.auth.loginWithToken(await res.text());
    expect(await sdk.auth.getUserInfo()).toMatchObject({ id: existing.userId });
    expect((await t.db.query('SELECT remote_id FROM saml_account WHERE belongs_to__user = $1', [existing.userId])).rows).toEqual([
      { remote_id: existing.email.toUpperCase() },
    ]);
    expect((await t.db.query('SELECT 1 FROM team_membership WHERE "user" = $1 AND is_member_of__team = $2', [existing.userId, teamId])).rowCount).toBe(1);
    // The next sign-in goes straight in.
    expect((await signInThroughProvider({ email: existing.email.toUpperCase() })).pathname).toBe('/saml/callback/signon');
  });

  it("answers our service provider's metadata for a provider", async () => {
    const res = await fetch(`${url}/auth/saml/${SSO}/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${sp.entityId}"`);
    expect(xml).toContain(`Location="${sp.acsUrl}"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect((await fetch(`${url}/auth/saml/no-such-provider/metadata`)).status).toBe(404);
  });

  it('an unknown SSO identifier is refused', async () => {
    const res = await fetch(`${url}/auth/saml/no-such-provider`, { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain(UNKNOWN_SSO_IDENTIFIER);
    const { requestId } = await begin();
    const xml = idp.buildResponse({ acsUrl: sp.acsUrl, audience: sp.entityId, inResponseTo: requestId, user: newUser() });
    const landing = await postToAcs(encode(xml), 'no-such-provider');
    expect(landing.pathname).toBe('/saml/callback/signon');
    expect(landing.searchParams.has('code')).toBe(false);
    // NUL characters reach no SQL.
    expect((await fetch(`${url}/auth/saml/a%00b`, { redirect: 'manual' })).status).toBeGreaterThanOrEqual(400);
    expect((await fetch(`${url}/auth/saml/a%00b`, { redirect: 'manual' })).status).toBeLessThan(500);
    expect((await finalize({ code: 'a\u0000b' })).status).toBe(400);
    const bad = await finalize({ code: 'not-a-code' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(INVALID_LOGIN_CODE);
  });
});

describe('SAML responses refused', () => {
  /** A response to a fresh AuthnRequest, `change`d; posted; the landing must carry no code and nobody is created. */
  async function expectRefused(make: (base: ResponseOptions & { issuer: string }) => string): Promise<void> {
    const { requestId } = await begin();
    const user = newUser();
    const base = { acsUrl: sp.acsUrl, audience: sp.entityId, inResponseTo: requestId, user, issuer: idp.entityId };
    const landing = await postToAcs(encode(make(base)));
    expect(landing.pathname).toBe('/saml/callback/signon');
    expect(landing.searchParams.has('code')).toBe(false);
    expect(await userIdOf(user.email)).toBeUndefined();
  }

  it('accepts the untampered control response (the refusals below are about what they change)', async () => {
    const { requestId } = await begin();
    const user = newUser();
    const landing = await postToAcs(encode(idp.buildResponse({ acsUrl: sp.acsUrl, audience: sp.entityId, inResponseTo: requestId, user })));
    expect(landing.searchParams.get('code')).toBeTruthy();
  });

  it('an unsigned assertion', async () => {
    await expectRefused((base) => idp.buildResponse({ ...base, signAssertion: false }));
    // …even inside a signed response: assertions must be signed.
    await expectRefused((base) => idp.buildResponse({ ...base, signAssertion: false, signResponse: true }));
  });

  it('signature wrapping: an unsigned assertion beside a signed one', async () => {
    await expectRefused((base) => tamper.unsignedBesideSigned(idp.buildResponse(base), { ...base, user: newUser() }));
  });

  it('signature wrapping: a comment inside the signed NameID', async () => {
    const victim = await signUp(t.app, `victim_${process.pid}@corp.example.com`);
    await expectRefused((base) => {
      const signed = idp.buildResponse({ ...base, user: { email: `${victim.email}.evil.test` } });
      return tamper.commentInNameId(signed, victim.email);
    });
    expect((await t.db.query('SELECT 1 FROM saml_account WHERE belongs_to__user = $1', [victim.userId])).rowCount).toBe(0);
  });

  it('signature wrapping: the signature moved onto a forged assertion', async () => {
    await expectRefused((base) => tamper.movedSignature(idp.buildResponse(base), newUser()));
  });

  it('a replayed assertion', async () => {
    const { requestId } = await begin();
    const xml = idp.buildResponse({ acsUrl: sp.acsUrl, audience: sp.entityId, inResponseTo: requestId, user: newUser() });
    expect((await postToAcs(encode(xml))).searchParams.get('code')).toBeTruthy();
    const replay = await postToAcs(encode(xml));
    expect(replay.searchParams.has('code')).toBe(false);
    const assertionId = /<saml:Assertion [^>]*ID="([^"]+)"/.exec(xml)![1];
    expect((await t.db.query('SELECT expires_at FROM saml_assertion_seen WHERE assertion_id = $1', [assertionId])).rowCount).toBe(1);
  });

  it('a wrong audience, a wrong destination or recipient, another issuer', async () => {
    await expectRefused((base) => idp.buildResponse({ ...base, audience: 'https://other-sp.example.com' }));
    await expectRefused((base) => idp.buildResponse({ ...base, destination: 'https://other-sp.example.com/acs' }));
    await expectRefused((base) => idp.buildResponse({ ...base, acsUrl: 'https://other-sp.example.com/acs', destination: sp.acsUrl }));
    await expectRefused((base) => idp.buildResponse({ ...base, issuer: 'https://someone-else.example.com' }));
  });

  it('an expired assertion, and one not yet valid', async () => {
    await expectRefused((base) => idp.buildResponse({ ...base, issuedAt: new Date(Date.now() - 60 * 60_000), validForMs: 5 * 60_000 }));
    await expectRefused((base) => idp.buildResponse({ ...base, issuedAt: new Date(Date.now() + 60 * 60_000) }));
  });

  it('a signature by a foreign certificate', async () => {
    const foreign = generateSigningCredentials('Someone else');
    await expectRefused((base) => idp.buildResponse({ ...base, credentials: foreign }));
  });

  it('an unsolicited response, or one answering a request we never issued', async () => {
    await expectRefused((base) => idp.buildResponse({ ...base, inResponseTo: null }));
    await expectRefused((base) => idp.buildResponse({ ...base, inResponseTo: '_never-issued-0123456789' }));
  });

  it('an assertion without a valid e-mail address', async () => {
    await expectRefused((base) => idp.buildResponse({ ...base, user: { email: 'not-an-email', nameId: 'opaque-1' } }));
  });

  it('a SHA-1 signature', async () => {
    await expectRefused((base) => idp.buildResponse({ ...base, algorithm: 'sha1' }));
  });

  it('an unsigned response envelope when the provider requires it signed', async () => {
    const sso = 'strict-sso';
    await insertIdentityProvider(t.db, {
      ssoIdentifier: sso,
      entryPoint: idp.ssoUrl,
      issuer: idp.entityId,
      certificate: idp.certificate,
      requiresSignedAuthnResponse: true,
    });
    const strict = serviceProviderUrls(t.app.mailer.publicUrl, sso);
    const attempt = async (signResponse: boolean) => {
      const { requestId } = await begin(sso);
      const xml = idp.buildResponse({ acsUrl: strict.acsUrl, audience: strict.entityId, inResponseTo: requestId, user: newUser(), signResponse });
      return postToAcs(encode(xml), sso);
    };
    expect((await attempt(false)).searchParams.has('code')).toBe(false);
    expect((await attempt(true)).searchParams.get('code')).toBeTruthy();
  });
});

describe('FLOTILLA_SAML=off', () => {
  it('every SAML route answers 404', async () => {
    const off = await buildTestApp({ samlEnabled: false });
    try {
      await insertIdentityProvider(off.db, { ssoIdentifier: SSO, entryPoint: idp.ssoUrl, issuer: idp.entityId, certificate: idp.certificate });
      const begin = await off.app.inject({ method: 'GET', url: `/auth/saml/${SSO}` });
      expect(begin.statusCode).toBe(404);
      expect(begin.body).toContain(SAML_OFF);
      const acs = await off.app.inject({ method: 'POST', url: `/auth/saml/${SSO}/callback`, payload: { SAMLResponse: 'eA==' } });
      expect(acs.statusCode).toBe(404);
      expect((await off.app.inject({ method: 'POST', url: '/auth/saml/finalize', payload: { code: 'x' } })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('a SAML account', () => {
  it('cannot create API keys, has no password to log in with, change or reset', async () => {
    const user = newUser();
    const landing = await signInThroughProvider(user);
    const token = await (await finalize({ code: landing.searchParams.get('code') })).text();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const key = await fetch(`${url}/api-key/user/full`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'ci' }) });
    expect(key.status).toBe(400);
    expect(await key.text()).toContain(SAML_NO_API_KEYS);
    const userId = (await userIdOf(user.email))!;
    expect((await t.db.query('SELECT 1 FROM api_key k JOIN "user" u ON u.actor = k.is_of__actor WHERE u.id = $1', [userId])).rowCount).toBe(0);

    const login = await fetch(`${url}/login_`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user.email, password: 'any password 123' }) });
    expect(login.status).toBe(401);

    const change = await fetch(`${url}/user/password`, { method: 'PATCH', headers: auth, body: JSON.stringify({ password: 'a new password 123' }) });
    expect(change.status).toBe(400);
    expect(await change.text()).toContain(SAML_NO_PASSWORD);
    // A reset code (as mailed) does not set one either.
    const resetCode = newSecret();
    await t.db.query(`INSERT INTO password_reset_code ("user", code_hash, created_at, expires_at) VALUES ($1, $2, now(), now() + interval '1 hour')`, [
      userId,
      hashSecret(resetCode),
    ]);
    const reset = await fetch(`${url}/user/v1/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ resetCode, password: 'a new password 123' }),
    });
    expect(reset.status).toBe(400);
    expect(await reset.text()).toContain(SAML_NO_PASSWORD);
    expect((await t.db.query('SELECT password FROM "user" WHERE id = $1', [userId])).rows[0]).toEqual({ password: null });

    // A password user still creates keys.
    const other = await fetch(`${url}/api-key/user/full`, {
      method: 'POST',
      headers: { authorization: `Bearer ${outsider.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci' }),
    });
    expect(other.status).toBe(200);
  });
});
