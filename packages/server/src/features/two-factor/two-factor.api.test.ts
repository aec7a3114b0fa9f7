import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { signJwt } from '../../infra/auth/jwt.js';
import { totpAt, totpStep, TOTP_STEP_SECONDS } from './totp.js';
import { sealPlaintextTwoFactorSecrets } from './two-factor.service.js';
import { SecretBox } from '../../infra/crypto/secret-box.js';
import { resolveSecretsBox, SECRETS_KEY_FILE, SecretsKeyMismatchError } from '../../infra/crypto/secrets-key.js';
import { TWO_FACTOR_FAILURE_WINDOW_SECONDS, TWO_FACTOR_MAX_FAILURES } from './two-factor-throttle.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';

// The server's clock is this variable (AppOptions.clock): tests move it
// instead of sleeping. Each test starts from its own instant, in the middle of a step.
let clockMs = 0;
const STEP_MS = TOTP_STEP_SECONDS * 1000;
function resetClock(): number {
  clockMs = (totpStep(Date.now()) + 1000) * STEP_MS + STEP_MS / 2;
  return clockMs;
}
const codeAt = (secret: string, stepOffset = 0) => totpAt(secret, totpStep(clockMs) + stepOffset);

let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDb>>;
let apiUrl: string;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  db = await createTestDb();
  app = await buildApp({ db: db.db, jwtSecret: TEST_JWT_SECRET, clock: () => clockMs });
  apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function login(user: SignedUpUser): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/login_', payload: { username: user.email, password: PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

const post = (url: string, token: string, payload: unknown) => app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });
const verify = (token: string, code: string) => post('/auth/totp/verify', token, { code });
const recover = (token: string, code: string) => post('/auth/v1/2fa-recover/verify', token, { code });

/** Signs up and turns two-factor on at the current clock; returns the secret and a passed token. */
async function enabledUser(): Promise<{ user: SignedUpUser; secret: string; token: string }> {
  const user = await signUp(app, undefined, PASSWORD);
  const setup = await app.inject({ method: 'GET', url: '/auth/totp/setup', headers: bearer(user.token) });
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = new URL(setup.body).searchParams.get('secret')!;
  const res = await verify(user.token, codeAt(secret));
  expect(res.statusCode, res.body).toBe(200);
  return { user, secret, token: res.body };
}

describe('two-factor setup', () => {
  it('GET /auth/totp/setup answers an otpauth:// URI whose 160-bit base32 secret is pending until verified', async () => {
    resetClock();
    const user = await signUp(app, undefined, PASSWORD);
    const res = await app.inject({ method: 'GET', url: '/auth/totp/setup', headers: bearer(user.token) });
    expect(res.statusCode).toBe(200);
    const uri = new URL(res.body);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Flotilla:${user.email}`);
    expect(uri.searchParams.get('secret')).toMatch(/^[A-Z2-7]{32}$/);
    // Not enabled yet: a login gets a token without the claim.
    expect(claims(await login(user))).not.toHaveProperty('twoFactorRequired');
    // A second setup replaces the pending secret; a code of the first no longer enables.
    const again = await app.inject({ method: 'GET', url: '/auth/totp/setup', headers: bearer(user.token) });
    const second = new URL(again.body).searchParams.get('secret')!;
    expect(second).not.toBe(uri.searchParams.get('secret'));
    const stale = await verify(user.token, totpAt(uri.searchParams.get('secret')!, totpStep(clockMs)));
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toBe('Invalid two-factor code');
    const ok = await verify(user.token, codeAt(second));
    expect(ok.statusCode).toBe(200);
    expect(claims(ok.body)).toMatchObject({ id: user.userId, twoFactorRequired: false });
  });

  it('needs a recent authentication (authTime within 20 minutes) to start', async () => {
    const user = await signUp(app, undefined, PASSWORD);
    const old = await signJwt(
      { id: user.userId, authTime: Date.now() - 21 * 60_000, actualUser: user.userId, permissions: [] },
      TEST_JWT_SECRET,
      3600,
    );
    const res = await app.inject({ method: 'GET', url: '/auth/totp/setup', headers: bearer(old) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toBe('You have to log in');
    const { rows } = await db.db.query('SELECT 1 FROM user_two_factor WHERE "user" = $1', [user.userId]);
    expect(rows).toHaveLength(0);
  });

  it('refuses a verify without a started setup, a missing code and a second setup once enabled', async () => {
    resetClock();
    const user = await signUp(app, undefined, PASSWORD);
    const none = await verify(user.token, '123456');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toBe('Two-factor authentication setup has not been started');
    const missing = await post('/auth/totp/verify', user.token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toBe('Two-factor code required');
    const { token } = await enabledUser();
    const again = await app.inject({ method: 'GET', url: '/auth/totp/setup', headers: bearer(token) });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toBe('Two-factor authentication is already enabled');
  });

  it('keeps the secret out of the data API', async () => {
    resetClock();
    const { user, secret, token } = await enabledUser();
    const res = await app.inject({ method: 'GET', url: `/v7/user(${user.userId})`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(secret);
    const probe = await app.inject({ method: 'GET', url: '/v7/user_two_factor', headers: bearer(token) });
    expect(probe.statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe('two-factor login', () => {
  it('logs in pending, then a TOTP code passes the second factor (setup → verify → login pending → passed)', async () => {
    resetClock();
    const { user, secret } = await enabledUser();
    const pending = await login(user);
    expect(claims(pending)).toMatchObject({ id: user.userId, twoFactorRequired: true });
    clockMs += STEP_MS; // the setup's code is used up
    const res = await verify(pending, codeAt(secret));
    expect(res.statusCode, res.body).toBe(200);
    expect(claims(res.body)).toMatchObject({ id: user.userId, twoFactorRequired: false });
    const data = await app.inject({ method: 'GET', url: '/v7/application?$select=id', headers: bearer(res.body) });
    expect(data.statusCode).toBe(200);
    // Refreshing a passed token keeps it passed.
    const refreshed = await app.inject({ method: 'GET', url: '/user/v1/refresh-token', headers: bearer(res.body) });
    expect(claims(refreshed.body)).toMatchObject({ twoFactorRequired: false });
  });

  it('lets a pending token reach only whoami, refresh and the second-factor endpoints', async () => {
    resetClock();
    const { user } = await enabledUser();
    const pending = await login(user);
    for (const url of [`/v7/user(${user.userId})`, '/v7/application?$select=id', `/v7/organization(${user.orgId})`]) {
      const res = await app.inject({ method: 'GET', url, headers: bearer(pending) });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toBe('You have to log in');
    }
    for (const [method, url] of [
      ['GET', '/auth/totp/setup'],
      ['POST', '/auth/totp/disable'],
      ['POST', '/auth/v1/2fa-recover/create'],
      ['POST', '/api-key/user/full'],
    ] as const) {
      const body = method === 'POST' ? { payload: { password: PASSWORD, name: 'k' } } : {};
      const res = await app.inject({ method, url, headers: bearer(pending), ...body });
      expect(res.statusCode, url).toBe(401);
    }
    const who = await app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(pending) });
    expect(who.statusCode).toBe(200);
    expect(who.json()).toMatchObject({ actorType: 'user', actorTypeId: user.userId });
    expect((await app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(pending) })).statusCode).toBe(200);
    const refreshed = await app.inject({ method: 'GET', url: '/user/v1/refresh-token', headers: bearer(pending) });
    expect(refreshed.statusCode).toBe(200);
    expect(claims(refreshed.body)).toMatchObject({ twoFactorRequired: true });
  });

  it('refuses a wrong code and a missing one', async () => {
    resetClock();
    const { user, secret } = await enabledUser();
    const pending = await login(user);
    const wrongCode = String((Number(codeAt(secret, 1)) + 1) % 1_000_000).padStart(6, '0');
    for (const code of [wrongCode, 'abcdef', '12345']) {
      const res = await verify(pending, code);
      expect(res.statusCode, code).toBe(400);
      expect(res.json()).toBe('Invalid two-factor code');
    }
    const missing = await post('/auth/totp/verify', pending, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toBe('Two-factor code required');
  });

  it('accepts each code once: the same code (or an older one) is refused afterwards', async () => {
    resetClock();
    const { user, secret } = await enabledUser();
    clockMs += STEP_MS;
    const code = codeAt(secret);
    expect((await verify(await login(user), code)).statusCode).toBe(200);
    const reused = await verify(await login(user), code);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toBe('Invalid two-factor code');
    // The setup's code (one step earlier, still within the drift) is used up too.
    expect((await verify(await login(user), codeAt(secret, -1))).statusCode).toBe(400);
  });

  it('accepts one step of drift either side and refuses two', async () => {
    resetClock();
    const { user, secret } = await enabledUser();
    clockMs += 10 * STEP_MS;
    const pending = await login(user);
    expect((await verify(pending, codeAt(secret, -2))).statusCode).toBe(400);
    expect((await verify(pending, codeAt(secret, -1))).statusCode).toBe(200);
    expect((await verify(pending, codeAt(secret, 2))).statusCode).toBe(400);
    expect((await verify(pending, codeAt(secret, 1))).statusCode).toBe(200);
  });

  it(`answers 429 with Retry-After after ${TWO_FACTOR_MAX_FAILURES} wrong codes, even to a right one, until the window passes`, async () => {
    resetClock();
    const { user, secret } = await enabledUser();
    clockMs += STEP_MS;
    const pending = await login(user);
    const wrong = String((Number(codeAt(secret, 3)) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < TWO_FACTOR_MAX_FAILURES; i++) {
      clockMs += 1000;
      expect((await verify(pending, wrong)).statusCode).toBe(400);
    }
    const limited = await verify(pending, codeAt(secret));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toBe('Too Many Requests. Try again later');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(TWO_FACTOR_FAILURE_WINDOW_SECONDS - 10);
    expect(retryAfter).toBeLessThanOrEqual(TWO_FACTOR_FAILURE_WINDOW_SECONDS);
    // Recovery codes share the limit.
    expect((await recover(pending, 'aaaaa-bbbbb')).statusCode).toBe(429);
    clockMs += retryAfter * 1000;
    const ok = await verify(pending, codeAt(secret));
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('recovery codes', () => {
  it('creates 10 codes; each passes a login once, instead of a TOTP code', async () => {
    resetClock();
    const { user, token } = await enabledUser();
    const created = await post('/auth/v1/2fa-recover/create', token, {});
    expect(created.statusCode).toBe(200);
    const codes = created.json<string[]>();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const { rows } = await db.db.query<{ recovery_code: string }>('SELECT recovery_code FROM two_factor_recovery_code WHERE "user" = $1', [user.userId]);
    expect(rows.map((r) => r.recovery_code)).not.toContain(codes[0]); // stored hashed
    const res = await recover(await login(user), codes[0]!.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(claims(res.body)).toMatchObject({ twoFactorRequired: false });
    const again = await recover(await login(user), codes[0]!);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toBe('Invalid recovery code');
    expect((await recover(await login(user), codes[1]!)).statusCode).toBe(200);
    const missing = await post('/auth/v1/2fa-recover/verify', await login(user), {});
    expect(missing.json()).toBe('Recovery code required');
  });

  it('regenerating invalidates every earlier code', async () => {
    resetClock();
    const { user, token } = await enabledUser();
    const first = (await post('/auth/v1/2fa-recover/create', token, {})).json<string[]>();
    const second = (await post('/auth/v1/2fa-recover/create', token, {})).json<string[]>();
    const old = await recover(await login(user), first[0]!);
    expect(old.statusCode).toBe(400);
    expect(old.json()).toBe('Invalid recovery code');
    expect((await recover(await login(user), second[0]!)).statusCode).toBe(200);
  });

  it('needs a recent authentication and two-factor on to create codes', async () => {
    resetClock();
    const plain = await signUp(app, undefined, PASSWORD);
    const off = await post('/auth/v1/2fa-recover/create', plain.token, {});
    expect(off.statusCode).toBe(400);
    expect(off.json()).toBe('Two-factor authentication is not enabled');
    const { user } = await enabledUser();
    const old = await signJwt(
      { id: user.userId, authTime: Date.now() - 21 * 60_000, actualUser: user.userId, twoFactorRequired: false, permissions: [] },
      TEST_JWT_SECRET,
      3600,
    );
    const res = await post('/auth/v1/2fa-recover/create', old, {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toBe('You have to log in');
  });
});

describe('disabling two-factor', () => {
  it('needs the password; then logins are complete again and the old codes are gone', async () => {
    resetClock();
    const { user, token } = await enabledUser();
    await post('/auth/v1/2fa-recover/create', token, {});
    const missing = await post('/auth/totp/disable', token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toBe('Password required');
    const wrong = await post('/auth/totp/disable', token, { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toBe('invalid_password');
    expect(claims(await login(user))).toMatchObject({ twoFactorRequired: true });
    const res = await post('/auth/totp/disable', token, { password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(claims(res.body)).not.toHaveProperty('twoFactorRequired');
    expect(claims(await login(user))).not.toHaveProperty('twoFactorRequired');
    const { rows } = await db.db.query('SELECT 1 FROM two_factor_recovery_code WHERE "user" = $1', [user.userId]);
    expect(rows).toHaveLength(0);
    const again = await post('/auth/totp/disable', res.body, { password: PASSWORD });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toBe('Two-factor authentication is not enabled');
  });
});

describe('balena-sdk', () => {
  it('sets up with getSetupKey/enable, then a login needs challenge(code)', async () => {
    resetClock();
    const user = await signUp(app, undefined, PASSWORD);
    const sdk = sdkClient(apiUrl);
    await sdk.auth.login({ email: user.email, password: PASSWORD });
    expect(await sdk.auth.twoFactor.isEnabled()).toBe(false);
    const key = await sdk.auth.twoFactor.getSetupKey();
    const secret = new URL(key).searchParams.get('secret')!;
    await sdk.auth.twoFactor.enable(codeAt(secret));
    expect(await sdk.auth.twoFactor.isEnabled()).toBe(true);
    expect(await sdk.auth.twoFactor.isPassed()).toBe(true);

    await sdk.auth.logout();
    await sdk.auth.login({ email: user.email, password: PASSWORD });
    expect(await sdk.auth.twoFactor.isPassed()).toBe(false);
    await expect(sdk.models.application.getAll()).rejects.toThrow();
    clockMs += STEP_MS;
    await sdk.auth.twoFactor.challenge(codeAt(secret));
    expect(await sdk.auth.twoFactor.isPassed()).toBe(true);
    expect(Array.isArray(await sdk.models.application.getAll())).toBe(true);
    await sdk.auth.twoFactor.disable(PASSWORD);
    expect(await sdk.auth.twoFactor.isEnabled()).toBe(false);
  });
});

describe('two-factor secrets at rest', () => {
  const storedSecret = async (userId: number) =>
    (await db.db.query<{ secret: string | null; pending_secret: string | null }>('SELECT secret, pending_secret FROM user_two_factor WHERE "user" = $1', [userId])).rows[0]!;

  it('stores the secret sealed, pending and enabled, never as the pairing code', async () => {
    resetClock();
    const user = await signUp(app, undefined, PASSWORD);
    const setup = await app.inject({ method: 'GET', url: '/auth/totp/setup', headers: bearer(user.token) });
    const secret = new URL(setup.body).searchParams.get('secret')!;
    const pending = (await storedSecret(user.userId)).pending_secret!;
    expect(pending.startsWith('sealed1:')).toBe(true);
    expect(pending).not.toContain(secret);
    expect((await verify(user.token, codeAt(secret))).statusCode).toBe(200);
    const enabled = (await storedSecret(user.userId)).secret!;
    expect(enabled.startsWith('sealed1:')).toBe(true);
    expect(enabled).not.toContain(secret);
    // The sealed secret still checks codes at login.
    clockMs += STEP_MS;
    expect((await verify(await login(user), codeAt(secret))).statusCode).toBe(200);
  });

  it('reads a secret stored before sealing, and seals it at start-up without changing the codes', async () => {
    resetClock();
    const { user, secret } = await enabledUser();
    await db.db.query('UPDATE user_two_factor SET secret = $2 WHERE "user" = $1', [user.userId, secret]); // as before sealing
    clockMs += STEP_MS;
    expect((await verify(await login(user), codeAt(secret))).statusCode).toBe(200);

    const box = new SecretBox(`flotilla-secrets:${TEST_JWT_SECRET}`); // buildApp's box without FLOTILLA_SECRETS_KEY
    expect(await sealPlaintextTwoFactorSecrets(db.db, box)).toBeGreaterThanOrEqual(1);
    const sealed = (await storedSecret(user.userId)).secret!;
    expect(sealed.startsWith('sealed1:')).toBe(true);
    expect(await sealPlaintextTwoFactorSecrets(db.db, box)).toBe(0); // nothing left to seal
    clockMs += STEP_MS;
    expect((await verify(await login(user), codeAt(secret))).statusCode).toBe(200);
  });
});

describe('the secrets key', () => {
  it('is generated once into the data directory (0600), kept, and must match the database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-secrets-'));
    const keyDb = await createTestDb(); // a database that has not seen a key yet
    try {
      const first = await resolveSecretsBox(keyDb.db, undefined, dir);
      const file = join(dir, SECRETS_KEY_FILE);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      // A restart reads the same key: what it sealed opens.
      const again = await resolveSecretsBox(keyDb.db, undefined, dir);
      expect(again.open(first.seal('JBSWY3DPEHPK3PXP'))).toBe('JBSWY3DPEHPK3PXP');
      // Another server with another key (its own data directory, or a different setting) refuses to start.
      const otherDir = await mkdtemp(join(tmpdir(), 'flotilla-secrets-'));
      await expect(resolveSecretsBox(keyDb.db, undefined, otherDir)).rejects.toBeInstanceOf(SecretsKeyMismatchError);
      await expect(resolveSecretsBox(keyDb.db, 'a-configured-secrets-key-of-32-characters', dir)).rejects.toThrow(/FLOTILLA_SECRETS_KEY/);
      await rm(otherDir, { recursive: true, force: true });
      // The configured key wins over the file, and a database set up with it accepts it.
      const configuredDb = await createTestDb();
      try {
        const configured = await resolveSecretsBox(configuredDb.db, 'a-configured-secrets-key-of-32-characters', dir);
        expect((await resolveSecretsBox(configuredDb.db, 'a-configured-secrets-key-of-32-characters', dir)).checkValue).toBe(configured.checkValue);
        expect(configured.checkValue).not.toBe(first.checkValue);
      } finally {
        await configuredDb.drop();
      }
    } finally {
      await keyDb.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
