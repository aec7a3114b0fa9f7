import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../infra/auth/api-keys.js';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, giveFleetRole, requester, row } from '../../../test/support/fleet-helpers.js';

// Provisioning keys (dialect §1.3, spec 2 §6 "Operator adds: API keys"): created by fleet
// operators and up through POST /api-key/v2/ (balena-sdk generateProvisioningKey) or the
// legacy endpoint; listed, renamed and revoked through /v7/api_key by them alone.
let t: TestApp;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let owner: SignedUpUser;
let operator: SignedUpUser;
let developer: SignedUpUser;
let observer: SignedUpUser;
let outsider: SignedUpUser;
let fleet: number;
let fleetActor: number;
let otherFleet: number; // B's

const future = () => new Date(Date.now() + 86_400_000).toISOString();
const v2 = (appId: number, extra: object = {}) => ({ actorType: 'application', actorTypeId: appId, roles: ['provisioning-api-key'], ...extra });
const keysOf = async (actor: number) =>
  (await t.db.query<{ id: number; name: string | null; description: string | null; expiry_date: Date | null }>(
    'SELECT id, name, description, expiry_date FROM api_key WHERE is_of__actor = $1 ORDER BY id',
    [actor],
  )).rows;

async function sdkAs(user: SignedUpUser) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  req = requester(t.app);
  [owner, operator, developer, observer, outsider] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app), signUp(t.app), signUp(t.app)]);
  fleet = await createFleet(t.app, t.db, owner, 'ProvisionedFleet');
  fleetActor = (await row<{ actor: number }>(t.db, 'SELECT actor FROM application WHERE id = $1', [fleet]))!.actor;
  await giveFleetRole(t.db, owner.orgId, fleet, operator, 'operator');
  await giveFleetRole(t.db, owner.orgId, fleet, developer, 'developer');
  await giveFleetRole(t.db, owner.orgId, fleet, observer, 'observer');
  otherFleet = await createFleet(t.app, t.db, outsider, 'OtherTenantFleet');
});
afterAll(async () => {
  await t?.close();
});

describe('creating provisioning keys', () => {
  it('balena-sdk generateProvisioningKey gives an operator a key of the fleet', async () => {
    const sdk = await sdkAs(operator);
    const expiry = future();
    const key = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: expiry, keyName: 'factory', keyDescription: 'line 3' });
    expect(typeof key).toBe('string');
    expect(key.length).toBeGreaterThanOrEqual(32);
    const stored = await row<{ is_of__actor: number; name: string; description: string; expiry_date: Date }>(
      t.db,
      'SELECT is_of__actor, name, description, expiry_date FROM api_key WHERE key = $1',
      [hashApiKey(key)],
    );
    expect(stored).toEqual({ is_of__actor: fleetActor, name: 'factory', description: 'line 3', expiry_date: new Date(expiry) });
  });

  it('lets developers and organization administrators create them too, and accepts no name or expiry', async () => {
    for (const user of [developer, owner]) {
      const res = await req(user.token, 'POST', '/api-key/v2/', v2(fleet));
      expect(res.statusCode, res.body).toBe(200);
      expect(await row(t.db, 'SELECT name, expiry_date FROM api_key WHERE key = $1', [hashApiKey(res.json())])).toEqual({ name: null, expiry_date: null });
    }
  });

  it('serves the legacy POST /api-key/application/{id}/provisioning', async () => {
    const res = await req(operator.token, 'POST', `/api-key/application/${fleet}/provisioning`, { name: 'legacy' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await row(t.db, 'SELECT is_of__actor, name FROM api_key WHERE key = $1', [hashApiKey(res.json())])).toEqual({ is_of__actor: fleetActor, name: 'legacy' });
    const bare = await t.app.inject({ method: 'POST', url: `/api-key/application/${fleet}/provisioning`, headers: { authorization: `Bearer ${operator.token}` } });
    expect(bare.statusCode, bare.body).toBe(200);
  });

  it('answers 401 without a login, 404 for a fleet the caller cannot see, 403 for an observer; writes nothing', async () => {
    const before = await keysOf(fleetActor);
    expect((await req(null, 'POST', '/api-key/v2/', v2(fleet))).statusCode).toBe(401);
    const hidden = await req(outsider.token, 'POST', '/api-key/v2/', v2(fleet));
    expect(hidden.statusCode).toBe(404);
    expect((await req(operator.token, 'POST', '/api-key/v2/', v2(otherFleet))).statusCode).toBe(404);
    expect((await req(operator.token, 'POST', '/api-key/v2/', v2(999_999))).statusCode).toBe(404);
    const denied = await req(observer.token, 'POST', '/api-key/v2/', v2(fleet));
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toBe("You don't have the required permission for this action");
    expect((await req(observer.token, 'POST', `/api-key/application/${fleet}/provisioning`, {})).statusCode).toBe(403);
    expect((await req(outsider.token, 'POST', `/api-key/application/${fleet}/provisioning`, {})).statusCode).toBe(404);
    await expect((await sdkAs(observer)).models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: future() })).rejects.toThrow();
    expect(await keysOf(fleetActor)).toEqual(before);
  });

  it('refuses other roles, other actor types, and an expiry in the past or unreadable (400)', async () => {
    const before = await keysOf(fleetActor);
    const cases: [object, string][] = [
      [v2(fleet, { roles: ['named-user-api-key'] }), "An application key must have exactly the role 'provisioning-api-key'"],
      [v2(fleet, { roles: ['provisioning-api-key', 'admin'] }), "An application key must have exactly the role 'provisioning-api-key'"],
      [v2(fleet, { actorType: 'device' }), "Only keys of actorType 'application' can be created here"],
      [v2(fleet, { expiryDate: new Date(Date.now() - 60_000).toISOString() }), 'expiryDate must be in the future'],
      [v2(fleet, { expiryDate: 'next tuesday' }), 'expiryDate must be an ISO 8601 date or null'],
    ];
    for (const [body, message] of cases) {
      const res = await req(operator.token, 'POST', '/api-key/v2/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toBe(message);
    }
    expect((await req(operator.token, 'POST', '/api-key/v2/', { actorType: 'application', roles: ['provisioning-api-key'] })).statusCode).toBe(400);
    expect(await keysOf(fleetActor)).toEqual(before);
  });
});

describe('managing provisioning keys', () => {
  it('balena-sdk lists the fleet’s keys for operators, without the key value', async () => {
    const sdk = await sdkAs(operator);
    await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: future(), keyName: 'listed' });
    const keys = await sdk.models.apiKey.getProvisioningApiKeysByApplication(fleet);
    const stored = await keysOf(fleetActor);
    expect(keys.map((k) => k.id).sort()).toEqual(stored.map((k) => k.id).sort());
    expect(keys.find((k) => k.name === 'listed')).toBeDefined();
    for (const k of keys) expect(k).not.toHaveProperty('key');
    expect((await req(operator.token, 'GET', `/v7/api_key?$select=key&$filter=is_of__actor eq ${fleetActor}`)).statusCode).toBe(400);
    // The dialect's actor navigation reaches them as well.
    const viaNav = await req(operator.token, 'GET', `/v7/api_key?$select=id&$filter=is_of__actor/any(a:a/is_of__application/any(x:x/id eq ${fleet}))`);
    expect(viaNav.json().d.map((k: { id: number }) => k.id).sort()).toEqual(stored.map((k) => k.id).sort());
  });

  it('shows them to nobody below operator and to no other tenant', async () => {
    expect(await (await sdkAs(observer)).models.apiKey.getProvisioningApiKeysByApplication(fleet)).toEqual([]);
    await expect((await sdkAs(outsider)).models.apiKey.getProvisioningApiKeysByApplication(fleet)).rejects.toThrow(/Application not found/);
    for (const user of [observer, outsider]) {
      expect((await req(user.token, 'GET', `/v7/api_key?$filter=is_of__actor eq ${fleetActor}`)).json(), user.username).toEqual({ d: [] });
    }
    // The operator does not see the fleet administrator's own user keys either.
    const own = await req(owner.token, 'POST', '/api-key/user/full', { name: 'personal' });
    expect(own.statusCode).toBe(200);
    expect((await req(operator.token, 'GET', `/v7/api_key?$filter=is_of__actor eq ${owner.actorId}`)).json()).toEqual({ d: [] });
  });

  it('lets an operator rename and describe a key but not extend it; others change nothing', async () => {
    const sdk = await sdkAs(operator);
    const key = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: future(), keyName: 'before' });
    const id = (await row<{ id: number }>(t.db, 'SELECT id FROM api_key WHERE key = $1', [hashApiKey(key)]))!.id;
    await sdk.models.apiKey.update(id, { name: 'after', description: 'described' });
    const renamed = await row(t.db, 'SELECT name, description, expiry_date FROM api_key WHERE id = $1', [id]);
    expect(renamed).toMatchObject({ name: 'after', description: 'described' });
    const extend = await req(operator.token, 'PATCH', `/v7/api_key(${id})`, { expiry_date: new Date(Date.now() + 10 * 86_400_000).toISOString() });
    expect(extend.statusCode).toBe(400);
    expect(extend.json()).toBe('Only the name and description of a provisioning key can be changed');
    for (const user of [observer, outsider]) {
      expect((await req(user.token, 'PATCH', `/v7/api_key(${id})`, { name: 'hijacked' })).statusCode).toBe(200);
      expect((await req(user.token, 'DELETE', `/v7/api_key(${id})`)).statusCode).toBe(200);
    }
    expect(await row(t.db, 'SELECT name, description, expiry_date FROM api_key WHERE id = $1', [id])).toEqual(renamed);
  });

  it('lets an operator revoke a key through balena-sdk', async () => {
    const sdk = await sdkAs(operator);
    const key = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: future() });
    const id = (await row<{ id: number }>(t.db, 'SELECT id FROM api_key WHERE key = $1', [hashApiKey(key)]))!.id;
    await sdk.models.apiKey.revoke(id);
    expect(await row(t.db, 'SELECT id FROM api_key WHERE id = $1', [id])).toBeUndefined();
  });
});
