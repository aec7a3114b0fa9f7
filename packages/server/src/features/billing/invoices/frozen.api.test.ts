import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, bearer, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../../test/harness.js';
import { createFleet, deviceTypeId, giveFleetRole, hex, row } from '../../../../test/support/fleet-helpers.js';
import { createReleaseImage, type CreatedImage } from '../../../../test/support/registry.js';
import { FROZEN_ORGANIZATION_MESSAGE } from './index.js';

/*
 * Issue 18 (frozen leftovers): what a frozen organization is refused beyond the data API's
 * write guard: registry pushes, provisioning keys, device keys; and the order of the checks
 * (a stranger learns nothing: 404 before 402). Real PostgreSQL, the real balena-sdk over
 * HTTP, billing on with the manual provider.
 */

let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser; // administrator of the frozen organization
let developer: SignedUpUser; // a member of it, developer of its fleet
let stranger: SignedUpUser; // administrator of another organization
let fleet: number;
let strangerFleet: number;
let image: CreatedImage;
let strangerImage: CreatedImage;
let device: { id: number; uuid: string; api_key: string };
let strangerDevice: { id: number; uuid: string; api_key: string };
let provKey: string;

async function sdkAs(user: SignedUpUser) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
}

async function register(fleetId: number, key: string) {
  const res = await t.app.inject({ method: 'POST', url: '/device/register', headers: bearer(key), payload: { application: fleetId, uuid: hex(), device_type: 'raspberrypi3' } });
  expect(res.statusCode, res.body).toBe(201);
  const d = res.json<{ id: number; api_key: string }>();
  return { ...d, uuid: (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM device WHERE id = $1', [d.id]))!.uuid };
}

async function freeze(orgId: number, frozen: boolean) {
  await t.db.query("UPDATE organization SET is_frozen = $2, has_past_due_invoice_since__date = CASE WHEN $2 THEN now() - interval '61 days' END WHERE id = $1", [orgId, frozen]);
}

const keysOf = async (deviceId: number) => (await row<{ n: number }>(t.db, 'SELECT count(*)::int AS n FROM api_key k JOIN device d ON d.actor = k.is_of__actor WHERE d.id = $1', [deviceId]))!.n;
const fleetKeys = async (fleetId: number) => (await row<{ n: number }>(t.db, 'SELECT count(*)::int AS n FROM api_key k JOIN application a ON a.actor = k.is_of__actor WHERE a.id = $1', [fleetId]))!.n;
const basic = (u: SignedUpUser) => ({ authorization: `Basic ${Buffer.from(`${u.username}:${u.token}`).toString('base64')}` });
const token = (headers: Record<string, string>, scope: string) => t.app.inject({ method: 'GET', url: `/auth/v1/token?scope=${encodeURIComponent(scope)}`, headers });
const accessOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { access: { name: string; actions: string[] }[] }).access;

beforeAll(async () => {
  t = await buildTestApp({ billing: { enabled: true } });
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, developer, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  fleet = await createFleet(t.app, t.db, owner, `Frozen${hex(3)}`);
  strangerFleet = await createFleet(t.app, t.db, stranger, `Healthy${hex(3)}`);
  await giveFleetRole(t.db, owner.orgId, fleet, developer, 'developer');
  image = await createReleaseImage(t.app, owner.token, fleet);
  strangerImage = await createReleaseImage(t.app, stranger.token, strangerFleet);
  provKey = await (await sdkAs(owner)).models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: new Date(Date.now() + 86_400_000).toISOString() });
  device = await register(fleet, provKey);
  const strangerProv = await (await sdkAs(stranger)).models.application.generateProvisioningKey({ slugOrUuidOrId: strangerFleet, keyExpiryDate: new Date(Date.now() + 86_400_000).toISOString() });
  strangerDevice = await register(strangerFleet, strangerProv);
  expect(await deviceTypeId(t.db, 'raspberrypi3')).toBeGreaterThan(0);
  await freeze(owner.orgId, true);
});

afterAll(async () => {
  await t?.close();
});

describe('a frozen organization', () => {
  it('gets no new provisioning key (balena-sdk, legacy endpoint, download-config): 402, nothing written; strangers still get 404', async () => {
    const before = await fleetKeys(fleet);
    const expiry = new Date(Date.now() + 86_400_000).toISOString();
    await expect((await sdkAs(owner)).models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: expiry })).rejects.toThrow(FROZEN_ORGANIZATION_MESSAGE);
    const v2 = await t.app.inject({ method: 'POST', url: '/api-key/v2/', headers: bearer(developer.token), payload: { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] } });
    expect(v2.statusCode).toBe(402);
    expect(v2.json()).toBe(FROZEN_ORGANIZATION_MESSAGE);
    const legacy = await t.app.inject({ method: 'POST', url: `/api-key/application/${fleet}/provisioning`, headers: bearer(owner.token), payload: {} });
    expect(legacy.statusCode).toBe(402);
    const config = await t.app.inject({ method: 'POST', url: '/download-config', headers: bearer(owner.token), payload: { appId: fleet, version: 'v2.0.0' } });
    expect(config.statusCode, config.body).toBe(402);
    expect(await fleetKeys(fleet)).toBe(before);
    // Another organization's user learns nothing about the frozen fleet.
    const hidden = await t.app.inject({ method: 'POST', url: '/api-key/v2/', headers: bearer(stranger.token), payload: { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] } });
    expect(hidden.statusCode).toBe(404);
    // A healthy organization is unaffected.
    await expect((await sdkAs(stranger)).models.application.generateProvisioningKey({ slugOrUuidOrId: strangerFleet, keyExpiryDate: expiry })).resolves.toMatch(/\S{16,}/);
  });

  it('gets no new device key from a user or a provisioning key (402); the device itself still may; strangers get 404', async () => {
    const before = await keysOf(device.id);
    await expect((await sdkAs(owner)).models.device.generateDeviceKey(device.uuid)).rejects.toThrow(FROZEN_ORGANIZATION_MESSAGE);
    const byProv = await t.app.inject({ method: 'POST', url: `/api-key/device/${device.id}/device-key`, headers: bearer(provKey), payload: {} });
    expect(byProv.statusCode).toBe(402);
    expect(await keysOf(device.id)).toBe(before);
    const hidden = await t.app.inject({ method: 'POST', url: `/api-key/device/${device.id}/device-key`, headers: bearer(stranger.token), payload: {} });
    expect(hidden.statusCode).toBe(404);
    // The device's own key exchange keeps working (a frozen organization's devices keep running).
    const own = await t.app.inject({ method: 'POST', url: `/api-key/device/${device.id}/device-key`, headers: bearer(device.api_key), payload: {} });
    expect(own.statusCode, own.body).toBe(200);
    expect(await keysOf(device.id)).toBe(before + 1);
    await expect((await sdkAs(stranger)).models.device.generateDeviceKey(strangerDevice.uuid)).resolves.toMatch(/\S{16,}/);
  });

  it('takes no registry push (402 in the registry error format); pulls by members and its devices keep working', async () => {
    const scope = `repository:${image.repository}:pull,push`;
    for (const who of [owner, developer]) {
      const res = await token(basic(who), scope);
      expect(res.statusCode, res.body).toBe(402);
      expect(res.json()).toEqual({ errors: [{ code: 'DENIED', message: FROZEN_ORGANIZATION_MESSAGE, detail: null }] });
    }
    const del = await token(basic(owner), `repository:${image.repository}:delete`);
    expect(del.statusCode).toBe(402);
    // Pulls: a member, and the fleet's device as a supervisor asks (d_<uuid> with its key).
    const pull = await token(basic(owner), `repository:${image.repository}:pull`);
    expect(pull.statusCode, pull.body).toBe(200);
    expect(accessOf(pull.json<{ token: string }>().token)).toEqual([{ type: 'repository', name: image.repository, actions: ['pull'] }]);
    const devicePull = await token({ authorization: `Basic ${Buffer.from(`d_${device.uuid}:${device.api_key}`).toString('base64')}` }, `repository:${image.repository}:pull`);
    expect(devicePull.statusCode, devicePull.body).toBe(200);
    expect(accessOf(devicePull.json<{ token: string }>().token)[0]?.actions).toEqual(['pull']);
    // A stranger asking to push into the frozen fleet gets what it always gets: no grant (no 402 telling it exists).
    const strangerPush = await token(basic(stranger), scope);
    expect(strangerPush.statusCode).toBe(200);
    expect(accessOf(strangerPush.json<{ token: string }>().token)).toEqual([]);
    // A healthy organization pushes.
    const healthy = await token(basic(stranger), `repository:${strangerImage.repository}:pull,push`);
    expect(healthy.statusCode).toBe(200);
    expect(accessOf(healthy.json<{ token: string }>().token)[0]?.actions.sort()).toEqual(['pull', 'push']);
  });

  it('refuses diagnostics and OS updates with 402 to its members, and 404 to another organization’s user (the check comes after the permission)', async () => {
    const diag = (u: SignedUpUser, uuid: string) => t.app.inject({ method: 'POST', url: `/actions/v1/${uuid}/checks`, headers: { ...bearer(u.token), 'content-type': 'application/json' }, payload: '{}' });
    const osUpdate = (u: SignedUpUser, uuid: string) => t.app.inject({ method: 'POST', url: `/actions/v2/${uuid}/resinhup`, headers: bearer(u.token), payload: { parameters: { target_version: '6.0.0' } } });
    for (const member of [owner, developer]) {
      const d = await diag(member, device.uuid);
      expect(d.statusCode, d.body).toBe(402);
      expect(d.json()).toBe(FROZEN_ORGANIZATION_MESSAGE);
      const o = await osUpdate(member, device.uuid);
      expect(o.statusCode, o.body).toBe(402);
      expect(o.json()).toBe(FROZEN_ORGANIZATION_MESSAGE);
    }
    expect((await diag(stranger, device.uuid)).statusCode).toBe(404);
    expect((await osUpdate(stranger, device.uuid)).statusCode).toBe(404);
    // Fleet restart: a member 402, a stranger 404.
    expect((await t.app.inject({ method: 'POST', url: `/application/${fleet}/restart`, headers: bearer(owner.token) })).statusCode).toBe(402);
    expect((await t.app.inject({ method: 'POST', url: `/application/${fleet}/restart`, headers: bearer(stranger.token) })).statusCode).toBe(404);
    // The stranger's own (healthy, offline) device gets the usual refusal, not 402.
    expect((await diag(stranger, strangerDevice.uuid)).statusCode).toBe(400);
    expect(await row(t.db, 'SELECT 1 FROM device_action_run WHERE device = $1', [device.id])).toBeUndefined();
  });

  it('keeps its devices’ own writes (state reports) working', async () => {
    const report = await t.app.inject({ method: 'PATCH', url: '/device/v3/state', headers: bearer(device.api_key), payload: { [device.uuid]: { os_version: 'balenaOS 6.0.1' } } });
    expect(report.statusCode, report.body).toBe(200);
    expect(await row(t.db, 'SELECT os_version FROM device WHERE id = $1', [device.id])).toEqual({ os_version: 'balenaOS 6.0.1' });
  });
});
