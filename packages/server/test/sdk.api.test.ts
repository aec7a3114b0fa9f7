import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp, sdkClient } from './harness.js';

// The published balena-sdk as the client, over real HTTP: the wire contract of
// shared/reference/balena-api-dialect.md.
let t: TestApp;
let apiUrl: string;
const sdkFor = () => sdkClient(apiUrl);

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

describe('balena-sdk against a Flotilla server', () => {
  it('logs in by email and by username and answers auth.whoami', async () => {
    const u = await signUp(t.app, 'sdk-user@example.com', 'sdk-password-1');
    for (const username of ['sdk-user@example.com', u.username]) {
      const sdk = sdkFor();
      await sdk.auth.login({ email: username, password: 'sdk-password-1' });
      expect(await sdk.auth.isLoggedIn()).toBe(true);
      const who = await sdk.auth.whoami();
      expect(who).toMatchObject({ actorType: 'user', actorTypeId: u.userId, username: u.username, email: 'sdk-user@example.com' });
    }
  });

  it('rejects bad credentials with BalenaInvalidLoginCredentials', async () => {
    const sdk = sdkFor();
    await expect(sdk.auth.login({ email: 'sdk-user@example.com', password: 'wrong-password' })).rejects.toMatchObject({
      code: 'BalenaInvalidLoginCredentials',
    });
  });

  it('lists organizations, creates a fleet by organization handle and device-type alias, and lists it', async () => {
    const u = await signUp(t.app);
    const sdk = sdkFor();
    await sdk.auth.loginWithToken(u.token);
    const orgs = await sdk.models.organization.getAll({ $select: ['id', 'handle', 'name'] });
    expect(orgs).toEqual([{ id: u.orgId, handle: u.username, name: u.username }]);

    // 'raspberrypi4' is an alias of raspberrypi4-64; the SDK resolves it through device_type_alias.
    const app = await sdk.models.application.create({ name: 'SdkFleet', organization: u.username, deviceType: 'raspberrypi4' });
    expect(app).toMatchObject({ app_name: 'SdkFleet', slug: `${u.username}/sdkfleet`, is_of__class: 'fleet' });
    expect(app.uuid).toMatch(/^[0-9a-f]{32}$/);

    const all = await sdk.models.application.getAll({ $select: ['id', 'app_name', 'slug'], $expand: { is_for__device_type: { $select: 'slug' } } });
    // getAll is everything readable: the user's fleet and the public host OS catalogue (issue 17).
    expect(all.filter((a) => !a.slug.startsWith('balena_os/'))).toEqual([{ id: app.id, app_name: 'SdkFleet', slug: `${u.username}/sdkfleet`, is_for__device_type: [{ slug: 'raspberrypi4-64' }] }]);
    const bySlug = await sdk.models.application.get(`${u.username}/sdkfleet`, { $select: 'id' });
    expect(bySlug.id).toBe(app.id);
  });

  it('looks up a device type by alias', async () => {
    const sdk = sdkFor();
    const dt = await sdk.models.deviceType.get('raspberrypi3', { $select: ['slug', 'name'] });
    expect(dt).toMatchObject({ slug: 'raspberrypi3', name: 'Raspberry Pi 3' });
    const [viaAlias] = await sdk.pine.get({
      resource: 'device_type',
      options: { $select: 'slug', $filter: { device_type_alias: { $any: { $alias: 'dta', $expr: { dta: { is_referenced_by__alias: 'nuc' } } } } } },
    });
    expect(viaAlias).toEqual({ slug: 'intel-nuc' });
  });

  it("answers an unauthorised read with {d: []}: another user's fleet is not found", async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const ownerSdk = sdkFor();
    await ownerSdk.auth.loginWithToken(owner.token);
    const app = await ownerSdk.models.application.create({ name: 'Private1', organization: owner.username, deviceType: 'raspberrypi3' });

    const otherSdk = sdkFor();
    await otherSdk.auth.loginWithToken(other.token);
    const raw = await otherSdk.pine.get({ resource: 'application', id: app.id });
    expect(raw).toBeUndefined();
    const res = await fetch(`${apiUrl}/v7/application(${app.id})`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ d: [] });
    await expect(otherSdk.models.application.get(app.id)).rejects.toMatchObject({ code: 'BalenaApplicationNotFound' });
  });

  it('answers anonymous reads: public collections {d: []}, user 401 (BalenaNotLoggedIn)', async () => {
    const sdk = sdkFor();
    // Anonymous callers read public applications only: here, the platform's host OS catalogue (issue 17).
    const publicApps = await sdk.pine.get({ resource: 'application', options: { $select: ['slug', 'is_public'] } });
    expect(publicApps.length).toBeGreaterThan(0);
    expect(publicApps.filter((a) => !a.is_public || !a.slug.startsWith('balena_os/'))).toEqual([]);
    expect(await sdk.pine.get({ resource: 'application', options: { $select: 'id', $filter: { is_public: false } } })).toEqual([]);
    await expect(sdk.pine.get({ resource: 'user', options: { $select: 'id' } })).rejects.toMatchObject({ code: 'BalenaNotLoggedIn' });
    const raw = await fetch(`${apiUrl}/v7/user?$select=id`);
    expect(raw.status).toBe(401);
  });

  it('creates an API key that then authenticates the SDK', async () => {
    const u = await signUp(t.app);
    const sdk = sdkFor();
    await sdk.auth.loginWithToken(u.token);
    const key = await sdk.models.apiKey.create({ name: 'sdk key', description: 'made by the sdk', expiryDate: null });
    const keySdk = sdkFor();
    await keySdk.auth.loginWithToken(key);
    expect(await keySdk.auth.whoami()).toMatchObject({ actorType: 'user', username: u.username });
    const keys = await sdk.models.apiKey.getAll({ $select: ['name', 'description'] });
    expect(keys).toEqual([{ name: 'sdk key', description: 'made by the sdk' }]);
  });
});
