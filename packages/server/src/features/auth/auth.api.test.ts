import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signUp, TEST_JWT_SECRET, type TestApp } from '../../../test/harness.js';
import { signJwt } from '../../infra/auth/jwt.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('POST /user/register', () => {
  it('creates a user with a username derived from the email and a personal organization', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/user/register', payload: { email: 'Alice.Smith@example.com', password: 'password123' } });
    expect(res.statusCode).toBe(201);
    const who = await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(res.body) });
    expect(who.json()).toMatchObject({ actorType: 'user', username: 'alice_smith', email: 'Alice.Smith@example.com' });
    const { rows } = await t.db.query<{ handle: string; role: string }>(
      `SELECT o.handle, r.name AS role FROM organization o
         JOIN organization_membership m ON m.is_member_of__organization = o.id
         JOIN organization_membership_role r ON r.id = m.organization_membership_role
         JOIN "user" u ON u.id = m."user" WHERE u.username = 'alice_smith'`,
    );
    expect(rows).toEqual([{ handle: 'alice_smith', role: 'administrator' }]);
  });

  it('makes the derived username unique', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/user/register', payload: { email: 'alice.smith@example.org', password: 'password123' } });
    expect(res.statusCode).toBe(201);
    const who = await t.app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(res.body) });
    expect(who.json().username).toBe('alice_smith2');
  });

  // A taken email is answered like a sign-up (issue 11, no e-mail enumeration): http-hardening.test.ts.
  it('rejects a short password, a long password and a bad email, creating nothing', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM "user"');
    const cases = [
      { email: 'bob@example.com', password: 'short', status: 400, msg: 'Password must be at least 8 characters' },
      { email: 'bob@example.com', password: 'x'.repeat(65), status: 400, msg: 'Password exceeds limit, must be reset to at most 64 characters' },
      { email: 'not-an-email', password: 'password123', status: 400, msg: 'Invalid email' },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/user/register', payload: { email: c.email, password: c.password } });
      expect(res.statusCode, c.email).toBe(c.status);
      expect(res.json()).toBe(c.msg);
    }
    const after = await t.db.query('SELECT count(*)::int AS n FROM "user"');
    expect(after.rows).toEqual(before.rows);
  });
});

describe('POST /login_', () => {
  it('logs in by email and by username, answering a JWT as text', async () => {
    const u = await signUp(t.app, 'carol@example.com', 'carol-password');
    for (const username of ['carol@example.com', u.username, 'CAROL@EXAMPLE.COM']) {
      const res = await t.app.inject({ method: 'POST', url: '/login_', payload: { username, password: 'carol-password' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      const claims = JSON.parse(Buffer.from(res.body.split('.')[1]!, 'base64url').toString());
      expect(claims).toMatchObject({ id: u.userId, actualUser: u.userId, permissions: [] });
      expect(claims.exp - claims.iat).toBe(36 * 3600);
      expect(typeof claims.authTime).toBe('number');
    }
  });

  it('answers 401 on bad credentials and 429 with Retry-After after 10 failures in 2 hours', async () => {
    await signUp(t.app, 'dave@example.com', 'dave-password');
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: 'dave@example.com', password: 'wrong-password' } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toBe('Invalid login credentials');
    }
    const locked = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: 'dave@example.com', password: 'dave-password' } });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(7000);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(7200);
    // Another username is unaffected.
    await signUp(t.app, 'erin@example.com', 'erin-password');
    const other = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: 'erin@example.com', password: 'erin-password' } });
    expect(other.statusCode).toBe(200);
  });

  it('rejects a missing password with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: 'x' } });
    expect(res.statusCode).toBe(400);
  });
});

describe('tokens', () => {
  it('refreshes a session token keeping authTime', async () => {
    const u = await signUp(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/user/v1/refresh-token', headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    const before = JSON.parse(Buffer.from(u.token.split('.')[1]!, 'base64url').toString());
    const after = JSON.parse(Buffer.from(res.body.split('.')[1]!, 'base64url').toString());
    expect(after.authTime).toBe(before.authTime);
    expect(after.id).toBe(before.id);
  });

  it('rejects a bad signature, alg none, an expired token and an unknown API key with 401', async () => {
    const u = await signUp(t.app);
    const [h, p] = u.token.split('.');
    const forged = `${h}.${p}.${createHmac('sha256', 'another-secret').update(`${h}.${p}`).digest('base64url')}`;
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`;
    const expired = await signJwt({ id: u.userId, authTime: 0, permissions: [] }, TEST_JWT_SECRET, -10);
    for (const token of [forged, none, expired, 'not-a-known-api-key']) {
      const res = await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(token) });
      expect(res.statusCode, token).toBe(401);
    }
    const exp = await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(expired) });
    expect(exp.json()).toBe('Your authentication token has expired');
  });

  it('answers 401 to whoami without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/actor/v1/whoami' });
    expect(res.statusCode).toBe(401);
  });
});

describe('API keys', () => {
  it('creates a named key shown once, usable as Bearer or ?apikey=, stored only as a hash', async () => {
    const u = await signUp(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api-key/user/full', headers: bearer(u.token), payload: { name: 'ci', description: 'for CI', expiryDate: null } });
    expect(res.statusCode).toBe(200);
    const key = res.json<string>();
    expect(typeof key).toBe('string');
    const { rows } = await t.db.query<{ key: string; name: string }>('SELECT key, name FROM api_key WHERE is_of__actor = $1', [u.actorId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).not.toBe(key);
    const viaBearer = await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(key) });
    expect(viaBearer.json()).toMatchObject({ actorType: 'user', actorTypeId: u.userId });
    const viaQuery = await t.app.inject({ method: 'GET', url: `/user/v1/whoami?apikey=${key}` });
    expect(viaQuery.json()).toMatchObject({ id: u.userId });
  });

  it('requires a name, refuses a past expiry and stops accepting an expired key', async () => {
    const u = await signUp(t.app);
    const noName = await t.app.inject({ method: 'POST', url: '/api-key/user/full', headers: bearer(u.token), payload: { name: '  ' } });
    expect(noName.statusCode).toBe(400);
    const past = await t.app.inject({ method: 'POST', url: '/api-key/user/full', headers: bearer(u.token), payload: { name: 'old', expiryDate: '2001-01-01T00:00:00Z' } });
    expect(past.statusCode).toBe(400);
    const soon = await t.app.inject({ method: 'POST', url: '/api-key/user/full', headers: bearer(u.token), payload: { name: 'soon', expiryDate: new Date(Date.now() + 60_000).toISOString() } });
    const key = soon.json<string>();
    await t.db.query(`UPDATE api_key SET expiry_date = now() - interval '1 second' WHERE name = 'soon'`);
    const res = await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(key) });
    expect(res.statusCode).toBe(401);
  });

  it('refuses to create a key without a signed-in user', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api-key/user/full', payload: { name: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('request limits', () => {
  it('answers 413 to a body over 1 MB', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: 'x', password: 'y'.repeat(1_100_000) } });
    expect(res.statusCode).toBe(413);
  });

  it('answers GET /ping with OK and no token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ping' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
  });
});
