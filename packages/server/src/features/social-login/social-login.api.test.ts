import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { Mailer } from '../../infra/mail/mailer.js';
import type { PoolDb } from '../../infra/db/db.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET } from '../../../test/harness.js';
import { freePort } from '../../../test/support/net.js';
import { startOidcProvider, type TestOidcAccount, type TestOidcProvider } from '../../../test/support/oidc-test-provider.js';
import { BROWSER_COOKIE, INVALID_STATE, LAST_WAY_TO_SIGN_IN } from './social-login.routes.js';

// Social login (issue 20 item 3) against a real OpenID provider (oidc-provider) over real
// HTTP: the test plays the browser (following redirects, keeping each host's cookies) and the
// dashboard's callback page (its fetch of /auth/{provider}/callback with the cookie).

let app: FastifyInstance;
let db: PoolDb;
let drop: () => Promise<void>;
let mailer: Mailer;
let apiUrl: string;
let idp: TestOidcProvider;
let unreachableApp: FastifyInstance;
let closedPort: number;

beforeAll(async () => {
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider({ redirectUris: [`${apiUrl}/auth/testid/callback`] });
  mailer = new Mailer({ db, publicUrl: apiUrl });
  app = await buildApp({
    db,
    jwtSecret: TEST_JWT_SECRET,
    mailer,
    socialLogin: {
      providers: [{ id: 'testid', name: 'Test ID', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: 'openid email profile' }],
      timeoutMs: 2000,
    },
  });
  await app.listen({ port, host: '127.0.0.1' });
  // A provider whose issuer does not answer (a closed port).
  const closed = await freePort();
  closedPort = closed;
  unreachableApp = await buildApp({
    db,
    jwtSecret: TEST_JWT_SECRET,
    mailer,
    socialLogin: { providers: [{ id: 'gone', name: 'Gone ID', issuer: `http://127.0.0.1:${closed}`, clientId: 'x', clientSecret: 'y', scopes: 'openid' }], timeoutMs: 1000 },
  });
}, 60_000);

afterAll(async () => {
  await unreachableApp?.close();
  await app?.close();
  await idp?.close();
  await mailer?.close();
  await drop?.();
});

/** A browser's cookies, per host (paths ignored: every name is distinct here). */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();
  cookieHeader(url: string): string {
    return [...(this.jar.get(new URL(url).host) ?? new Map<string, string>()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  cookie(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).host)?.get(name);
  }
  setCookie(url: string, name: string, value: string): void {
    const host = new URL(url).host;
    if (!this.jar.has(host)) this.jar.set(host, new Map());
    this.jar.get(host)!.set(name, value);
  }
  async navigate(url: string): Promise<Response> {
    const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html', cookie: this.cookieHeader(url) } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.setCookie(url, pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return res;
  }
  /**
   * Follows redirects from `start` until the browser is sent back to our callback; returns
   * that URL (not requested: the dashboard page would load there).
   */
  async untilCallback(start: string): Promise<string> {
    let url = start;
    for (let hop = 0; hop < 12; hop++) {
      const res = await this.navigate(url);
      const location = res.headers.get('location');
      if (!location) throw new Error(`no redirect from ${url}: ${res.status} ${await res.text()}`);
      url = new URL(location, url).href;
      if (url.startsWith(`${apiUrl}/auth/`) && new URL(url).pathname.endsWith('/callback')) return url;
    }
    throw new Error('too many redirects');
  }
  /** The dashboard's callback page: fetch of the same URL with the browser's cookies (not a navigation). */
  callbackFetch(url: string, token?: string): Promise<Response> {
    return fetch(url, { headers: { accept: 'application/json', cookie: this.cookieHeader(url), ...(token ? bearer(token) : {}) } });
  }
}

let n = 0;
const person = (over: Partial<TestOidcAccount> = {}): TestOidcAccount => {
  n++;
  return { sub: `remote-${n}-${Date.now()}`, email: `social${n}_${Date.now()}@example.com`, email_verified: true, name: `Social Person ${n}`, ...over };
};

/** A whole sign-in at the provider as `account`; the callback's answer. */
async function signInThrough(account: TestOidcAccount, browser = new Browser(), start = `${apiUrl}/auth/testid`): Promise<{ res: Response; browser: Browser; callback: string }> {
  idp.signInAs(account);
  const callback = await browser.untilCallback(start);
  return { res: await browser.callbackFetch(callback), browser, callback };
}

type Sdk = ReturnType<typeof sdkClient>;
/** The signed-in user's id and username (balena-sdk whoami). */
async function whoIs(sdk: Sdk): Promise<{ id: number; username: string; email: string }> {
  const me = (await sdk.auth.whoami()) as { actorType?: string; actorTypeId?: number; username?: string; email?: string } | undefined;
  if (me?.actorType !== 'user') throw new Error('not a user');
  return { id: me.actorTypeId!, username: me.username!, email: me.email! };
}

const socialRows = async (userId: number) =>
  (await db.query<{ provider: string; remote_id: string; display_name: string }>('SELECT provider, remote_id, display_name FROM social_service_account WHERE belongs_to__user = $1', [userId])).rows;

describe('social sign-in', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce, and binds the flow to the browser by an httpOnly cookie', async () => {
    const res = await fetch(`${apiUrl}/auth/testid`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(idp.issuer);
    expect(to.searchParams.get('client_id')).toBe(idp.clientId);
    expect(to.searchParams.get('redirect_uri')).toBe(`${apiUrl}/auth/testid/callback`);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(to.searchParams.get('state')).toMatch(/.{20,}/);
    expect(to.searchParams.get('nonce')).toMatch(/.{20,}/);
    expect(to.searchParams.get('scope')).toBe('openid email profile');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${BROWSER_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/auth/);
  });

  it('a new remote identity with a verified address makes a user without a password and its social account; the token works with balena-sdk', async () => {
    const account = person();
    const { res } = await signInThrough(account);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { action: string; token: string };
    expect(body.action).toBe('signed-in');
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(body.token);
    const me = await whoIs(sdk);
    expect(me.email).toBe(account.email);
    const userId = me.id;
    const linked = await sdk.pine.get({ resource: 'social_service_account', options: { $select: ['provider', 'display_name'], $filter: { belongs_to__user: userId } } });
    expect(linked).toEqual([{ provider: 'testid', display_name: account.name }]);
    const user = (await db.query<{ has_password_set: boolean; password: string | null; is_verified: boolean }>('SELECT has_password_set, password, is_verified FROM "user" WHERE id = $1', [userId])).rows[0]!;
    expect(user).toEqual({ has_password_set: false, password: null, is_verified: true });
    // Its personal organization, as a sign-up gets.
    const orgs = await sdk.pine.get({ resource: 'organization', options: { $select: 'handle' } });
    expect(orgs.map((o) => o.handle)).toContain(me.username.toLowerCase());

    // The second sign-in of the same identity signs the same user in; no second user or row.
    const again = await signInThrough({ ...account, name: 'Renamed Person' });
    const token2 = ((await again.res.json()) as { token: string }).token;
    const sdk2 = sdkClient(apiUrl);
    await sdk2.auth.loginWithToken(token2);
    expect((await whoIs(sdk2)).id).toBe(userId);
    expect(await socialRows(userId)).toEqual([{ provider: 'testid', remote_id: account.sub, display_name: 'Renamed Person' }]);
    expect((await db.query('SELECT 1 FROM "user" WHERE lower(email) = lower($1)', [account.email])).rowCount).toBe(1);
  });

  it('refuses to take over an existing account with the same e-mail address, and makes nothing', async () => {
    const owner = await signUp(app);
    const { res } = await signInThrough(person({ email: owner.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(await res.json()).toBe('An account with this e-mail address already exists. Sign in with your password, then link Test ID in your preferences.');
    expect(await socialRows(owner.userId)).toEqual([]);
  });

  it('refuses an address the provider did not verify', async () => {
    const account = person({ email_verified: false });
    const { res } = await signInThrough(account);
    expect(res.status).toBe(400);
    expect(await res.json()).toBe('Test ID did not share a verified e-mail address, so no account can be made with it.');
    expect((await db.query('SELECT 1 FROM "user" WHERE lower(email) = lower($1)', [account.email])).rowCount).toBe(0);
  });

  it('gives a user with two-factor on a pending token, as a password login does', async () => {
    const account = person();
    const first = await signInThrough(account);
    const token = ((await first.res.json()) as { token: string }).token;
    const userId = Number(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).id);
    await db.query(`INSERT INTO user_two_factor ("user", secret, enabled_at) VALUES ($1, 'sealed-secret', now())`, [userId]);
    app.authenticator.forgetSessions(userId);
    const second = await signInThrough(account);
    const pending = ((await second.res.json()) as { token: string }).token;
    expect(JSON.parse(Buffer.from(pending.split('.')[1]!, 'base64url').toString())).toMatchObject({ id: userId, twoFactorRequired: true });
    // Pending: the data API is closed until the second factor.
    const res = await fetch(`${apiUrl}/v7/application?$select=id`, { headers: bearer(pending) });
    expect(res.status).toBe(401);
  });
});

describe('the callback refuses', () => {
  it('an unknown or replayed state (400), and a callback from another browser (no binding cookie)', async () => {
    const browser = new Browser();
    const { res, callback } = await signInThrough(person(), browser);
    expect(res.status).toBe(200);
    // Replayed: the state is single use.
    const replay = await browser.callbackFetch(callback);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toBe(INVALID_STATE);
    // A made-up state.
    const bad = new URL(callback);
    bad.searchParams.set('state', 'forged-state-value');
    expect((await browser.callbackFetch(bad.href)).status).toBe(400);
    // Login CSRF: someone else's callback URL opened in this browser.
    idp.signInAs(person());
    const attacker = new Browser();
    const theirs = await attacker.untilCallback(`${apiUrl}/auth/testid`);
    const victim = new Browser();
    const res2 = await victim.callbackFetch(theirs);
    expect(res2.status).toBe(400);
    expect(await res2.json()).toBe(INVALID_STATE);
    // Its state was taken by that attempt: the attacker cannot finish it either.
    expect((await attacker.callbackFetch(theirs)).status).toBe(400);
  });

  it('a PKCE verifier that does not match the challenge (the provider refuses the code)', async () => {
    const account = person();
    idp.signInAs(account);
    const browser = new Browser();
    const callback = await browser.untilCallback(`${apiUrl}/auth/testid`);
    await db.query(`UPDATE social_login_state SET code_verifier = $1`, ['x'.repeat(50)]);
    const res = await browser.callbackFetch(callback);
    expect(res.status).toBe(400);
    expect(await res.json()).toBe('Sign-in with Test ID failed: invalid_grant');
    expect((await db.query('SELECT 1 FROM "user" WHERE email = $1', [account.email])).rowCount).toBe(0);
  });

  it('an ID token whose nonce is not the flow\'s', async () => {
    const account = person();
    idp.signInAs(account);
    const browser = new Browser();
    const callback = await browser.untilCallback(`${apiUrl}/auth/testid`);
    await db.query(`UPDATE social_login_state SET nonce = 'another-nonce-value'`);
    const res = await browser.callbackFetch(callback);
    expect(res.status).toBe(400);
    expect(await res.json()).toBe("Sign-in with Test ID failed: the provider's answer did not check out");
    expect((await db.query('SELECT 1 FROM "user" WHERE email = $1', [account.email])).rowCount).toBe(0);
  });

  it('an error the provider sent back (the person cancelled)', async () => {
    const browser = new Browser();
    const start = await browser.navigate(`${apiUrl}/auth/testid`);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const res = await browser.callbackFetch(`${apiUrl}/auth/testid/callback?error=access_denied&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(idp.issuer)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toBe('Sign-in with Test ID was not completed: access_denied');
  });

  it('an issuer that never answers: 504 after the configured timeout', async () => {
    // Accepts the connection, never answers.
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const slowApp = await buildApp({
      db,
      jwtSecret: TEST_JWT_SECRET,
      mailer,
      socialLogin: { providers: [{ id: 'slow', name: 'Slow ID', issuer: `http://127.0.0.1:${port}`, clientId: 'x', clientSecret: 'y', scopes: 'openid' }], timeoutMs: 1000 },
    });
    try {
      const res = await slowApp.inject({ method: 'GET', url: '/auth/slow' });
      expect(res.statusCode).toBe(504);
      expect(res.json()).toBe('Slow ID did not answer in time. Try again later.');
    } finally {
      await slowApp.close();
      await new Promise<void>((resolve) => {
        silent.close(() => resolve());
        for (const c of sockets) c.destroy();
      });
    }
  });

  it('an unknown provider id (404), at the start and at the callback', async () => {
    const start = await fetch(`${apiUrl}/auth/nosuch`, { redirect: 'manual' });
    expect(start.status).toBe(404);
    expect(await start.json()).toBe('Unknown sign-in provider: nosuch');
    expect((await fetch(`${apiUrl}/auth/nosuch/callback?code=a&state=b`)).status).toBe(404);
    // A person clicking a button is sent back to the login page with the reason.
    const page = await fetch(`${apiUrl}/auth/nosuch`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`/login?social_error=${encodeURIComponent('Unknown sign-in provider: nosuch')}`);
  });

  it('an unreachable issuer: 502 with a clear message and nothing stored; a person is sent back to /login with it; the next attempt tries again', async () => {
    const before = (await db.query('SELECT 1 FROM social_login_state')).rowCount;
    const res = await unreachableApp.inject({ method: 'GET', url: '/auth/gone' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toBe('Gone ID cannot be reached. Try again later.');
    expect((await db.query('SELECT 1 FROM social_login_state')).rowCount).toBe(before);
    const page = await unreachableApp.inject({ method: 'GET', url: '/auth/gone', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/login?social_error=${encodeURIComponent('Gone ID cannot be reached. Try again later.')}`);
    // The failure was not kept: once the provider answers, the next attempt discovers it.
    const back = await startOidcProvider({ port: closedPort, redirectUris: [`${apiUrl}/auth/gone/callback`] });
    try {
      const res2 = await unreachableApp.inject({ method: 'GET', url: '/auth/gone' });
      expect(res2.statusCode).toBe(302);
      expect(new URL(res2.headers.location as string).origin).toBe(back.issuer);
    } finally {
      await back.close();
    }
  });
});

describe('one path, two answers', () => {
  it('a browser navigation to /auth/{provider}/callback gets the dashboard page; its fetch gets the API answer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-social-web-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>dashboard</title>');
    const withWeb = await buildApp({
      db,
      jwtSecret: TEST_JWT_SECRET,
      mailer,
      webDistDir: dir,
      socialLogin: { providers: [{ id: 'testid', name: 'Test ID', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: 'openid' }] },
    });
    try {
      const page = await withWeb.inject({ method: 'GET', url: '/auth/testid/callback?code=abc&state=def', headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('<title>dashboard</title>');
      const api = await withWeb.inject({ method: 'GET', url: '/auth/testid/callback?code=abc&state=def', headers: { accept: 'application/json' } });
      expect(api.statusCode).toBe(400);
      expect(api.json()).toBe(INVALID_STATE);
    } finally {
      await withWeb.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('link and unlink', () => {
  it('links a provider to a signed-in password user, who then signs in through it; unlinks it', async () => {
    const owner = await signUp(app);
    const intent = await fetch(`${apiUrl}/auth/testid/link`, { method: 'POST', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, body: '{}' });
    expect(intent.status).toBe(200);
    const { url } = (await intent.json()) as { url: string };
    expect(url).toMatch(/^\/auth\/testid\?link=[A-Za-z0-9]{30,}$/);
    // The remote address may differ from the account's: the signed-in user asked for the link.
    const account = person({ email: `other_${Date.now()}@example.net` });
    const { res, browser } = await signInThrough(account, new Browser(), `${apiUrl}${url}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ action: 'linked', provider: 'testid' });
    expect(await socialRows(owner.userId)).toEqual([{ provider: 'testid', remote_id: account.sub, display_name: account.name }]);
    // The intent was single use.
    const reused = await browser.navigate(`${apiUrl}${url}`);
    expect(reused.status).toBe(303);
    expect(reused.headers.get('location')).toBe(`/preferences/details?social_error=${encodeURIComponent('This link request has expired. Start again from your preferences.')}`);
    // Linked already: a second intent is refused.
    const twice = await fetch(`${apiUrl}/auth/testid/link`, { method: 'POST', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, body: '{}' });
    expect(twice.status).toBe(409);

    // Signing in through the provider now signs the owner in.
    const signIn = await signInThrough(account);
    const token = ((await signIn.res.json()) as { token: string }).token;
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(token);
    expect((await whoIs(sdk)).id).toBe(owner.userId);

    // Another user cannot unlink it (404, nothing removed); the owner can.
    const other = await signUp(app);
    const id = (await db.query<{ id: number }>('SELECT id FROM social_service_account WHERE belongs_to__user = $1', [owner.userId])).rows[0]!.id;
    const foreign = await fetch(`${apiUrl}/user/v1/social-accounts/${id}`, { method: 'DELETE', headers: bearer(other.token) });
    expect(foreign.status).toBe(404);
    expect(await socialRows(owner.userId)).toHaveLength(1);
    const unlink = await fetch(`${apiUrl}/user/v1/social-accounts/${id}`, { method: 'DELETE', headers: bearer(owner.token) });
    expect(unlink.status).toBe(200);
    expect(await socialRows(owner.userId)).toEqual([]);
    // Read-only through the data API.
    const ownerSdk = sdkClient(apiUrl);
    await ownerSdk.auth.loginWithToken(owner.token);
    expect(await ownerSdk.pine.get({ resource: 'social_service_account', options: { $select: 'provider' } })).toEqual([]);
  });

  it('refuses to link an identity that belongs to another user', async () => {
    const account = person();
    const { res } = await signInThrough(account);
    expect(res.status).toBe(200);
    const owner = await signUp(app);
    const intent = await fetch(`${apiUrl}/auth/testid/link`, { method: 'POST', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, body: '{}' });
    const { url } = (await intent.json()) as { url: string };
    const linked = await signInThrough(account, new Browser(), `${apiUrl}${url}`);
    expect(linked.res.status).toBe(409);
    expect(await linked.res.json()).toBe('This Test ID account is already linked to another user.');
    expect(await socialRows(owner.userId)).toEqual([]);
  });

  it('a link intent needs a signed-in user', async () => {
    const res = await fetch(`${apiUrl}/auth/testid/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });

  it('refuses to unlink the last way to sign in (no password, no other social or SAML account)', async () => {
    const account = person();
    const { res } = await signInThrough(account);
    const token = ((await res.json()) as { token: string }).token;
    const userId = Number(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).id);
    const id = (await db.query<{ id: number }>('SELECT id FROM social_service_account WHERE belongs_to__user = $1', [userId])).rows[0]!.id;
    const refused = await fetch(`${apiUrl}/user/v1/social-accounts/${id}`, { method: 'DELETE', headers: bearer(token) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toBe(LAST_WAY_TO_SIGN_IN);
    expect(await socialRows(userId)).toHaveLength(1);
    // As the message says: a password first (the fresh social sign-in counts as recent), then it unlinks.
    const set = await fetch(`${apiUrl}/user/password`, {
      method: 'PATCH',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'a-new-password-123' }),
    });
    expect(set.status, await set.clone().text()).toBe(200);
    const fresh = await set.text();
    const unlinked = await fetch(`${apiUrl}/user/v1/social-accounts/${id}`, { method: 'DELETE', headers: bearer(fresh) });
    expect(unlinked.status).toBe(200);
    expect(await socialRows(userId)).toEqual([]);
    const login = await fetch(`${apiUrl}/login_`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: account.email, password: 'a-new-password-123' }) });
    expect(login.status).toBe(200);
  });
});
