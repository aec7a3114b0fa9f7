import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signInStaff, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Spec 1 §6–§7: PATCH /login_ {username} lets a platform administrator log in as a user.
let t: TestApp;
let target: SignedUpUser;
let adminId: number;
let adminToken: string;
let supportToken: string;
let otherAdminUsername: string;

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function staffToken(email: string, platformRole: 'administrator' | 'support_agent') {
  const staff = await signInStaff(t.app, t.db, platformRole, email);
  return { token: staff.token, id: staff.userId, username: staff.username };
}

const loginAs = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'PATCH', url: '/login_', headers, payload: body as object });

beforeAll(async () => {
  t = await buildTestApp();
  target = await signUp(t.app);
  const admin = await staffToken('login-as-admin@example.com', 'administrator');
  adminId = admin.id;
  adminToken = admin.token;
  supportToken = (await staffToken('login-as-support@example.com', 'support_agent')).token;
  otherAdminUsername = (await staffToken('login-as-other-admin@example.com', 'administrator')).username;
});
afterAll(async () => {
  await t.close();
});

describe('PATCH /login_ (admin login-as)', () => {
  it('gives a platform administrator a token that authenticates as the named user', async () => {
    const res = await loginAs({ username: target.username }, bearer(adminToken));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const token = res.body;
    const who = await t.app.inject({ method: 'GET', url: '/user/v1/whoami', headers: bearer(token) });
    expect(who.statusCode).toBe(200);
    expect(who.json()).toEqual({ id: target.userId, username: target.username, email: target.email });
  });

  it("marks the token with the administrator as actualUser and gives it the user's own permissions", async () => {
    const token = (await loginAs({ username: target.username.toUpperCase() }, bearer(adminToken))).body;
    const claims = claimsOf(token);
    expect(claims.id).toBe(target.userId);
    expect(claims.actualUser).toBe(adminId);
    expect(claims.permissions).not.toContain('admin.home');
    expect(claims.permissions).not.toContain('support.home');
  });

  it('keeps actualUser when the login-as token is refreshed', async () => {
    const token = (await loginAs({ username: target.username }, bearer(adminToken))).body;
    const refreshed = await t.app.inject({ method: 'GET', url: '/user/v1/refresh-token', headers: bearer(token) });
    expect(refreshed.statusCode).toBe(200);
    expect(claimsOf(refreshed.body)).toMatchObject({ id: target.userId, actualUser: adminId });
  });

  it('refuses a support agent with 403', async () => {
    const res = await loginAs({ username: target.username }, bearer(supportToken));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toBe('Only platform administrators may log in as another user');
  });

  it('refuses an ordinary user with 403', async () => {
    const other = await signUp(t.app);
    const res = await loginAs({ username: target.username }, bearer(other.token));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toBe('Only platform administrators may log in as another user');
  });

  it('refuses an anonymous caller with 401, even without a body', async () => {
    expect((await loginAs({ username: target.username })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PATCH', url: '/login_' })).statusCode).toBe(401);
  });

  it("answers 404 'User not found' for an unknown username", async () => {
    const res = await loginAs({ username: 'nobody_by_this_name' }, bearer(adminToken));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toBe('User not found');
  });

  it('answers 400 for a missing or blank username', async () => {
    for (const body of [{}, { username: '' }, { username: '   ' }]) {
      const res = await loginAs(body, bearer(adminToken));
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toBe('A username is required');
    }
  });

  it('refuses to log a platform administrator in as another platform administrator (403)', async () => {
    const res = await loginAs({ username: otherAdminUsername }, bearer(adminToken));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toBe('You cannot log in as another platform administrator');
  });

  it('leaves POST /login_ (password login) as it was', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: target.email, password: 'correct horse battery' } });
    expect(res.statusCode).toBe(200);
    expect(claimsOf(res.body)).toMatchObject({ id: target.userId, actualUser: target.userId });
  });
});
