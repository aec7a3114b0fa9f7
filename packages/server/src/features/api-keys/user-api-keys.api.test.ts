import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_EXPIRY_IN_PAST, API_KEY_NAME_REQUIRED } from '@flotilla/model';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { bearer, buildTestApp, sdkClient, signUp, TEST_JWT_SECRET, type TestApp } from '../../../test/harness.js';

// Preferences → access tokens (spec 1 §2, §5, §7): named user API keys through balena-sdk
// (sdk.models.apiKey), the list options the dashboard sends, and the edit rules.
let t: TestApp;
let apiUrl: string;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function signedInSdk() {
  const u = await signUp(t.app);
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(u.token);
  return { u, sdk };
}

describe('named user API keys', () => {
  it('pages, counts and orders the caller’s named keys on the server', async () => {
    const { u, sdk } = await signedInSdk();
    for (const name of ['delta', 'alpha', 'charlie', 'bravo', 'echo']) {
      await sdk.models.apiKey.create({ name, expiryDate: name === 'echo' ? null : inDays(7), description: `key ${name}` });
    }
    // Another user's keys and a provisioning key are not in the caller's list.
    const other = await signedInSdk();
    await other.sdk.models.apiKey.create({ name: 'zulu', expiryDate: null });

    const page = (skip: number, direction: 'asc' | 'desc') =>
      sdk.models.apiKey.getAllNamedUserApiKeys({ $select: ['name', 'description'], $orderby: [{ name: direction }], $top: 2, $skip: skip });
    expect((await page(0, 'asc')).map((k) => k.name)).toEqual(['alpha', 'bravo']);
    expect((await page(2, 'asc')).map((k) => k.name)).toEqual(['charlie', 'delta']);
    expect((await page(4, 'asc')).map((k) => k.name)).toEqual(['echo']);
    expect((await page(0, 'desc')).map((k) => k.name)).toEqual(['echo', 'delta']);
    const count = await sdk.pine.get({ resource: 'api_key', options: { $count: { $filter: { is_of__actor: u.actorId, name: { $ne: null } } } } });
    expect(count).toBe(5);
  });

  it('edits the name, description and expiry, and refuses an empty name or a past expiry without changing anything', async () => {
    const { u, sdk } = await signedInSdk();
    await sdk.models.apiKey.create({ name: 'ci', expiryDate: inDays(1), description: 'first' });
    const [key] = await sdk.models.apiKey.getAllNamedUserApiKeys({ $select: ['id', 'name', 'description', 'expiry_date'] });
    const later = inDays(90);
    await sdk.models.apiKey.update(key!.id, { name: 'deploy', description: 'second', expiryDate: later });
    const read = async () => (await sdk.models.apiKey.getAllNamedUserApiKeys({ $select: ['name', 'description', 'expiry_date'] }))[0];
    expect(await read()).toEqual({ name: 'deploy', description: 'second', expiry_date: later });

    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: `/v7/api_key(${key!.id})`, headers: bearer(u.token), payload });
    const blank = await patch({ name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toBe(API_KEY_NAME_REQUIRED);
    const past = await patch({ expiry_date: '2001-01-01T00:00:00.000Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toBe(API_KEY_EXPIRY_IN_PAST);
    expect(await read()).toEqual({ name: 'deploy', description: 'second', expiry_date: later });

    // Never expiring is a choice (the dashboard warns).
    await sdk.models.apiKey.update(key!.id, { name: 'deploy', expiryDate: null });
    expect((await read())!.expiry_date).toBeNull();
  });

  it('revokes a key, which then stops authenticating; nobody else may revoke or edit it', async () => {
    const { u, sdk } = await signedInSdk();
    const value = await sdk.models.apiKey.create({ name: 'temp', expiryDate: inDays(30) });
    const [key] = await sdk.models.apiKey.getAllNamedUserApiKeys({ $select: ['id'] });

    const other = await signedInSdk();
    await other.sdk.models.apiKey.revoke(key!.id);
    await other.sdk.models.apiKey.update(key!.id, { name: 'stolen' }).catch(() => undefined);
    expect((await t.db.query('SELECT name FROM api_key WHERE id = $1', [key!.id])).rows).toEqual([{ name: 'temp' }]);
    expect((await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(value) })).statusCode).toBe(200);

    await sdk.models.apiKey.revoke(key!.id);
    expect(await sdk.models.apiKey.getAllNamedUserApiKeys()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(value) })).statusCode).toBe(401);
    expect(u.actorId).toBeGreaterThan(0);
  });

  it('needs a recent sign-in to create a key (20 minutes from authTime), and an API key never qualifies', async () => {
    const { u, sdk } = await signedInSdk();
    const stale = await issueSessionToken(t.db, TEST_JWT_SECRET, u.userId, Date.now() - 21 * 60_000);
    const create = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api-key/user/full', headers: bearer(token), payload: { name: 'late', expiryDate: null } });
    const refused = await create(stale);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toBe('You have to log in');
    const apiKey = await sdk.models.apiKey.create({ name: 'fresh', expiryDate: null });
    expect((await create(apiKey)).statusCode).toBe(401);
    const fresh = await issueSessionToken(t.db, TEST_JWT_SECRET, u.userId, Date.now() - 19 * 60_000);
    expect((await create(fresh)).statusCode).toBe(200);
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM api_key WHERE is_of__actor = $1 ORDER BY id', [u.actorId]);
    expect(rows.map((r) => r.name)).toEqual(['fresh', 'late']);
  });

  it('refuses creation with a past custom expiry (server-enforced) and creates nothing', async () => {
    const { u } = await signedInSdk();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: bearer(u.token),
      payload: { name: 'old', expiryDate: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(res.statusCode).toBe(400);
    expect((await t.db.query('SELECT 1 FROM api_key WHERE is_of__actor = $1', [u.actorId])).rowCount).toBe(0);
  });
});
