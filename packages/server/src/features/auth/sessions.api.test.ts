import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_VALIDITY_FROM_AUTH_TIME_MS } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { hashApiKey } from '../../infra/auth/api-keys.js';
import { requireRecentAuth } from '../../infra/auth/recent-auth.js';
import type { PoolDb } from '../../infra/db/db.js';
import { bearer, createTestDb, signUp, TEST_JWT_SECRET } from '../../../test/harness.js';

const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;

// The re-verification window is read from an injectable clock: moving it forward stands in
// for waiting 20 minutes.
let offset = 0;
const clock = () => Date.now() + offset;

let app: FastifyInstance;
let db: PoolDb;
let drop: () => Promise<void>;
beforeAll(async () => {
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, clock });
});
afterAll(async () => {
  await app.close();
  await drop();
});
beforeEach(() => {
  offset = 0;
});

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { authTime: number; iat: number; id: number };

async function login(username: string, password = PASSWORD) {
  return app.inject({ method: 'POST', url: '/login_', payload: { username, password } });
}
async function whoami(token: string) {
  return app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(token) });
}

describe('token refresh', () => {
  it('issues a new token that keeps the authTime of the login', async () => {
    const u = await signUp(app);
    const before = claimsOf(u.token);
    const res = await app.inject({ method: 'GET', url: '/user/v1/refresh-token', headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    expect(claimsOf(res.body).authTime).toBe(before.authTime);
    expect((await whoami(res.body)).statusCode).toBe(200);
  });
});

describe('identity re-verification (20 minutes after authTime)', () => {
  it('allows a sensitive action within 20 minutes and refuses it after, changing nothing', async () => {
    const u = await signUp(app);
    offset = 19 * MINUTE;
    const ok = await app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(u.token), payload: { currentPassword: PASSWORD, password: 'second password' } });
    expect(ok.statusCode).toBe(200);
    const token = ok.body;

    offset = 21 * MINUTE;
    const late = await app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(token), payload: { currentPassword: 'second password', password: 'third password' } });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toBe('You have to log in');
    expect((await login(u.email, 'second password')).statusCode).toBe(200);
    expect((await login(u.email, 'third password')).statusCode).toBe(401);
  });

  it('POST /auth/v1/reverify checks the password and answers a token with a new authTime', async () => {
    const u = await signUp(app);
    offset = 30 * MINUTE;
    const wrong = await app.inject({ method: 'POST', url: '/auth/v1/reverify', headers: bearer(u.token), payload: { password: 'not my password' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toBe('invalid_password');

    const res = await app.inject({ method: 'POST', url: '/auth/v1/reverify', headers: bearer(u.token), payload: { password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    const fresh = res.body;
    expect(claimsOf(fresh).authTime).toBeGreaterThan(claimsOf(u.token).authTime + 29 * MINUTE);
    const change = await app.inject({ method: 'PATCH', url: '/user/email', headers: bearer(fresh), payload: { email: `re_${u.email}`, password: PASSWORD } });
    expect(change.statusCode).toBe(200);
    // The old token is still too old.
    const old = await app.inject({ method: 'PATCH', url: '/user/email', headers: bearer(u.token), payload: { email: `re2_${u.email}`, password: PASSWORD } });
    expect(old.statusCode).toBe(401);
  });

  it('rate-limits wrong passwords together with failed logins (429)', async () => {
    const u = await signUp(app);
    for (let i = 0; i < 10; i++) {
      const r = await app.inject({ method: 'POST', url: '/auth/v1/reverify', headers: bearer(u.token), payload: { password: `wrong ${i}` } });
      expect(r.statusCode).toBe(400);
    }
    const locked = await app.inject({ method: 'POST', url: '/auth/v1/reverify', headers: bearer(u.token), payload: { password: PASSWORD } });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect((await login(u.username)).statusCode).toBe(429);
  });

  it('requireRecentAuth reads the clock it is given and refuses API keys and anonymous callers', () => {
    const authTime = 1_000_000;
    const request = (actor: unknown) => ({ actor }) as FastifyRequest;
    const session = request({ actorId: 1, kind: 'user', userId: 1, permissions: [], claims: { id: 1, authTime, permissions: [], iat: 0, exp: 0 } });
    expect(requireRecentAuth(session, authTime + SESSION_VALIDITY_FROM_AUTH_TIME_MS).userId).toBe(1);
    expect(() => requireRecentAuth(session, authTime + SESSION_VALIDITY_FROM_AUTH_TIME_MS + 1)).toThrow('You have to log in');
    expect(() => requireRecentAuth(request({ actorId: 1, kind: 'user', userId: 1, permissions: [], apiKeyId: 3 }), authTime)).toThrow('You have to log in');
    expect(() => requireRecentAuth(request(null), authTime)).toThrow('You have to log in');
  });
});

describe('log out from other sessions', () => {
  it('revokes every other token of the user, keeps the caller signed in and leaves API keys and other users alone', async () => {
    const u = await signUp(app);
    const other = await signUp(app);
    const second = (await login(u.email)).body;
    const key = `sessions-test-key-${u.userId}-${Date.now()}`;
    await db.query('INSERT INTO api_key (key, name, is_of__actor) VALUES ($1, $2, $3)', [hashApiKey(key), 'cli', u.actorId]);
    expect((await whoami(second)).statusCode).toBe(200); // cached in the authenticator

    const res = await app.inject({ method: 'POST', url: '/user/v1/logout-others', headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    const kept = res.body;

    for (const revoked of [second, u.token]) {
      const r = await whoami(revoked);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toBe('Your session has expired');
    }
    expect((await whoami(kept)).statusCode).toBe(200);
    expect(claimsOf(kept).authTime).toBe(claimsOf(u.token).authTime);
    expect((await whoami(key)).statusCode).toBe(200);
    expect((await whoami(other.token)).statusCode).toBe(200);
    // A login right after (even within the same second) is a new, valid session.
    const again = await login(u.email);
    expect((await whoami(again.body)).statusCode).toBe(200);
  });
});

describe('change password', () => {
  it('applies the rules with the spec messages and changes nothing on failure', async () => {
    const u = await signUp(app);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ currentPassword: PASSWORD, password: 'short' }, 400, 'Password must be at least 8 characters'],
      [{ currentPassword: PASSWORD, password: 'x'.repeat(65) }, 400, 'Password exceeds limit, must be reset to at most 64 characters'],
      [{ password: 'a new password' }, 400, 'The current password is required'],
      [{ currentPassword: 'not the password', password: 'a new password' }, 400, 'invalid_password'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(u.token), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toBe(message);
    }
    expect((await login(u.email)).statusCode).toBe(200);
  });

  it('sets the new password, logs out the other sessions and keeps this one', async () => {
    const u = await signUp(app);
    const second = (await login(u.email)).body;
    const res = await app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(u.token), payload: { currentPassword: PASSWORD, password: 'brand new password' } });
    expect(res.statusCode).toBe(200);
    expect((await whoami(res.body)).statusCode).toBe(200);
    expect((await whoami(second)).statusCode).toBe(401);
    expect((await login(u.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(u.email, 'brand new password')).statusCode).toBe(200);
  });

  it('lets a user without a password set one without a current password', async () => {
    const u = await signUp(app);
    await db.query('UPDATE "user" SET password = NULL, has_password_set = false WHERE id = $1', [u.userId]);
    const res = await app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(u.token), payload: { password: 'first password' } });
    expect(res.statusCode).toBe(200);
    const { rows } = await db.query<{ has_password_set: boolean }>('SELECT has_password_set FROM "user" WHERE id = $1', [u.userId]);
    expect(rows[0]!.has_password_set).toBe(true);
    expect((await login(u.email, 'first password')).statusCode).toBe(200);
  });
});

describe('change email', () => {
  it('needs the new email and the password, refuses a taken or invalid address, and changes nothing then', async () => {
    const u = await signUp(app);
    const other = await signUp(app);
    const cases: [Record<string, unknown>, number, string | undefined][] = [
      [{ email: `new_${u.email}` }, 400, undefined],
      [{ password: PASSWORD }, 400, undefined],
      [{ email: 'not an email', password: PASSWORD }, 400, 'invalid_email'],
      [{ email: other.email.toUpperCase(), password: PASSWORD }, 409, 'This email is already taken'],
      [{ email: `new_${u.email}`, password: 'wrong password' }, 400, 'invalid_password'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await app.inject({ method: 'PATCH', url: '/user/email', headers: bearer(u.token), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      if (message) expect(res.json()).toBe(message);
    }
    expect((await whoami(u.token)).json().email).toBe(u.email);
  });

  it('changes the address, which must be verified again', async () => {
    const u = await signUp(app);
    await db.query('UPDATE "user" SET is_verified = true WHERE id = $1', [u.userId]);
    const email = `changed_${u.email}`;
    // Past the one-verification-mail-a-minute limit of the sign-up's own mail; still within
    // the 20-minute re-verification window.
    offset = 2 * MINUTE;
    const res = await app.inject({ method: 'PATCH', url: '/user/email', headers: bearer(u.token), payload: { email, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect((await whoami(u.token)).json().email).toBe(email);
    const { rows } = await db.query<{ is_verified: boolean }>('SELECT is_verified FROM "user" WHERE id = $1', [u.userId]);
    expect(rows[0]!.is_verified).toBe(false);
    // A verification mail goes to the new address.
    const mail = await db.query(`SELECT 1 FROM email_outbox WHERE recipient = $1 AND text_body LIKE '%/user/verify-email/%'`, [email]);
    expect(mail.rowCount).toBe(1);
    expect((await login(email)).statusCode).toBe(200);
  });
});
