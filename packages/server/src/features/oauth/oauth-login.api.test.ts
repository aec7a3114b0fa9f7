import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

let t: TestApp;
let admin: SignedUpUser;
const CLIENT = 'oauth-test-client';
const REDIRECT = 'https://app.example.com/callback';

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signUp(t.app);
  await t.db.query(`UPDATE "user" SET platform_role = 'administrator' WHERE id = $1`, [admin.userId]);
  t.app.authenticator.forgetSessions(admin.userId);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v7/oauth_application',
    headers: bearer(admin.token),
    payload: { client_id: CLIENT, redirect_uri: REDIRECT, name: 'Example App', description: 'Reads your fleets' },
  });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await t.close();
});

const authorize = (token: string | undefined, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/oauth/authorize', headers: token ? bearer(token) : {}, payload: body });
const exchange = (form: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
const appWithMyAuthorization = async (token: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/v7/oauth_application?$filter=client_id eq '${CLIENT}'&$select=name,description,redirect_uri&$expand=oauth_application_authorization($select=id)`,
      headers: bearer(token),
    })
  ).json<{ d: { name: string; redirect_uri: string; oauth_application_authorization: unknown[] }[] }>().d[0];

describe('OAuth applications', () => {
  it('only platform administrators register them; every user reads them', async () => {
    const u = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v7/oauth_application',
      headers: bearer(u.token),
      payload: { client_id: 'sneaky', redirect_uri: 'https://evil.example.com', name: 'Sneaky' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect((await t.db.query(`SELECT 1 FROM oauth_application WHERE client_id = 'sneaky'`)).rowCount).toBe(0);
    expect(await appWithMyAuthorization(u.token)).toMatchObject({ name: 'Example App', redirect_uri: REDIRECT, oauth_application_authorization: [] });
  });
});

describe('POST /oauth/authorize and POST /oauth/token', () => {
  it('records the consent, issues a single-use code and exchanges it for a session of the user', async () => {
    const u = await signUp(t.app);
    const res = await authorize(u.token, { client_id: CLIENT, response_type: 'code' });
    expect(res.statusCode).toBe(200);
    const { code, redirect_uri } = res.json<{ code: string; redirect_uri: string }>();
    expect(redirect_uri).toBe(REDIRECT);
    expect((await appWithMyAuthorization(u.token))!.oauth_application_authorization).toHaveLength(1);
    // Another user does not see this user's consent.
    const other = await signUp(t.app);
    expect((await appWithMyAuthorization(other.token))!.oauth_application_authorization).toHaveLength(0);

    const token = await exchange({ grant_type: 'authorization_code', code, client_id: CLIENT, redirect_uri: REDIRECT });
    expect(token.statusCode).toBe(200);
    const { access_token, token_type } = token.json<{ access_token: string; token_type: string }>();
    expect(token_type).toBe('Bearer');
    const who = await t.app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(access_token) });
    expect(who.json()).toMatchObject({ id: u.userId, username: u.username });
    // Sensitive actions still need the user's own password.
    const sensitive = await t.app.inject({ method: 'PATCH', url: '/user/email', headers: bearer(access_token), payload: { email: `x_${u.email}`, password: 'correct horse battery' } });
    expect(sensitive.statusCode).toBe(401);

    const again = await exchange({ grant_type: 'authorization_code', code, client_id: CLIENT, redirect_uri: REDIRECT });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toBe('invalid_grant');
  });

  it('refuses a code for another client, another redirect_uri, or an expired one', async () => {
    const u = await signUp(t.app);
    const codeOf = async () => (await authorize(u.token, { client_id: CLIENT, response_type: 'code' })).json<{ code: string }>().code;

    const c1 = await codeOf();
    expect((await exchange({ grant_type: 'authorization_code', code: c1, client_id: 'other-client' })).statusCode).toBe(400);
    expect((await exchange({ grant_type: 'authorization_code', code: c1, client_id: CLIENT, redirect_uri: 'https://evil.example.com' })).statusCode).toBe(400);
    // The failed attempts did not use it up.
    expect((await exchange({ grant_type: 'authorization_code', code: c1, client_id: CLIENT })).statusCode).toBe(200);

    const c2 = await codeOf();
    await t.db.query(`UPDATE oauth_authorization_code SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    const expired = await exchange({ grant_type: 'authorization_code', code: c2, client_id: CLIENT });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toBe('invalid_grant');
    expect((await exchange({ grant_type: 'password', code: c2, client_id: CLIENT })).json()).toBe('unsupported_grant_type');
  });

  it('needs a signed-in user, a known client and response_type code', async () => {
    const u = await signUp(t.app);
    expect((await authorize(undefined, { client_id: CLIENT, response_type: 'code' })).statusCode).toBe(401);
    expect((await authorize(u.token, { client_id: 'nobody', response_type: 'code' })).statusCode).toBe(404);
    const implicit = await authorize(u.token, { client_id: CLIENT, response_type: 'token' });
    expect(implicit.statusCode).toBe(400);
    expect(implicit.json()).toBe('unsupported_response_type');
    expect((await t.db.query('SELECT 1 FROM oauth_authorization_code WHERE "user" = $1', [u.userId])).rowCount).toBe(0);
  });
});
