import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { eventually, TestLink } from '../../../test/support/cloud-link.js';

// Issue 12, item 2: the device fields balena lets a user with device write rights set
// (balena-sdk's own fixtures patch them) are writable through the published balena-sdk by a
// fleet developer; observers and other organizations are still refused, a running release
// must be one of the device's own fleet, and the derived state stays consistent.
type Sdk = ReturnType<typeof sdkClient>;
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let ownerSdk: Sdk;
let devSdk: Sdk;
let observerSdk: Sdk;
let strangerSdk: Sdk;
let appId: number;
let otherAppId: number;

const hex = (n = 16) => randomBytes(n).toString('hex');

async function as(user: SignedUpUser): Promise<Sdk> {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
}

async function member(role: 'developer' | 'observer'): Promise<Sdk> {
  const user = await signUp(t.app);
  await addOrganizationMember(t.db, user.userId, owner.orgId);
  const roleId = (await ownerSdk.pine.get({ resource: 'application_membership_role', id: { name: role }, options: { $select: 'id' } }))!.id;
  await ownerSdk.pine.post({ resource: 'user_application_membership', body: { user: user.userId, is_member_of__application: appId, application_membership_role: roleId } });
  return as(user);
}

async function release(app: number): Promise<number> {
  const r = (await ownerSdk.pine.post({ resource: 'release', body: { belongs_to__application: app, commit: hex(), status: 'success', source: 'cloud', composition: {} } })) as { id: number };
  return r.id;
}

async function newDevice(): Promise<{ id: number; uuid: string }> {
  const uuid = ownerSdk.models.device.generateUniqueKey();
  const { id } = await ownerSdk.models.device.register(appId, uuid);
  return { id, uuid };
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  ownerSdk = await as(owner);
  appId = (await ownerSdk.models.application.create({ name: 'CompatFields', deviceType: 'raspberrypi3', organization: owner.username })).id;
  otherAppId = (await ownerSdk.models.application.create({ name: 'CompatFieldsOther', deviceType: 'raspberrypi3', organization: owner.username })).id;
  devSdk = await member('developer');
  observerSdk = await member('observer');
  strangerSdk = await as(await signUp(t.app));
});
afterAll(async () => {
  await t?.close();
});

describe('device fields a fleet developer may write through balena-sdk', () => {
  it("sets the reported fields as balena-sdk's fixtures do, and reads them back", async () => {
    const d = await newDevice();
    const releaseId = await release(appId);
    await devSdk.pine.patch({
      resource: 'device',
      id: d.id,
      body: { is_online: true, os_version: 'balenaOS 2.88.4', os_variant: 'prod', supervisor_version: '14.0.0', is_running__release: releaseId },
    });
    const metrics = {
      cpu_usage: 34, cpu_temp: 51, cpu_id: 'abc123', memory_usage: 512, memory_total: 1024, storage_block_device: '/dev/mmcblk0p6',
      storage_usage: 1000, storage_total: 32000, is_undervolted: true, ip_address: '10.0.0.2 192.168.1.4', public_address: '203.0.113.9',
      mac_address: '00:11:22:33:44:55', api_heartbeat_state: 'online', status: 'Idle', update_status: 'done' as const, provisioning_state: '',
      latitude: '52.37', longitude: '4.89',
    };
    await devSdk.pine.patch({ resource: 'device', id: d.id, body: metrics });
    const read = await devSdk.models.device.get(d.id, {
      $select: ['is_online', 'os_version', 'os_variant', 'supervisor_version', 'is_running__release', 'last_connectivity_event', ...(Object.keys(metrics) as never[])],
    });
    expect(read).toMatchObject({ is_online: true, os_version: 'balenaOS 2.88.4', os_variant: 'prod', supervisor_version: '14.0.0', is_running__release: { __id: releaseId }, ...metrics });
    // Setting is_online is a connectivity event, as in balena.
    expect(read.last_connectivity_event).not.toBeNull();
  });

  it('sets is_online with is_connected_to_vpn, as balena does (balena-sdk device.isOnline reads the latter)', async () => {
    const d = await newDevice();
    await devSdk.pine.patch({ resource: 'device', id: d.id, body: { is_connected_to_vpn: true } as never });
    expect(await devSdk.models.device.isOnline(d.uuid)).toBe(true);
    expect((await devSdk.models.device.get(d.id, { $select: 'is_online' })).is_online).toBe(true);
  });

  it("answers balena-sdk's device.isOnline from the cloud link (Flotilla's VPN)", async () => {
    const uuid = ownerSdk.models.device.generateUniqueKey();
    const { api_key } = await ownerSdk.models.device.register(appId, uuid);
    expect(await devSdk.models.device.isOnline(uuid)).toBe(false);
    const link = await TestLink.open(apiUrl, api_key);
    try {
      await eventually(() => devSdk.models.device.isOnline(uuid), (online) => online);
    } finally {
      await link.close();
    }
    await eventually(() => devSdk.models.device.isOnline(uuid), (online) => !online);
  });

  it('reads the OS variant from the version when the write does not name it, and keeps an explicit connectivity event', async () => {
    const d = await newDevice();
    await devSdk.pine.patch({ resource: 'device', id: d.id, body: { os_version: 'balenaOS 2.88.4 (dev)', is_online: false, last_connectivity_event: null } });
    expect(await devSdk.models.device.get(d.id, { $select: ['os_variant', 'is_online', 'last_connectivity_event'] })).toMatchObject({
      os_variant: 'dev',
      is_online: false,
      last_connectivity_event: null,
    });
  });

  it('renames a service (service.service_name) as a developer', async () => {
    const service = (await devSdk.pine.post({ resource: 'service', body: { application: appId, service_name: `main${hex(3)}` } })) as { id: number };
    await devSdk.pine.patch({ resource: 'service', id: service.id, body: { service_name: 'renamed' } });
    expect((await devSdk.pine.get({ resource: 'service', id: service.id, options: { $select: 'service_name' } }))?.service_name).toBe('renamed');
  });

  it("refuses a running release of another fleet, and leaves the device as it was", async () => {
    const d = await newDevice();
    const foreign = await release(otherAppId);
    // The owner reads both fleets: the rule answers.
    await expect(ownerSdk.pine.patch({ resource: 'device', id: d.id, body: { is_running__release: foreign } })).rejects.toMatchObject({
      statusCode: 400,
      body: 'A device can only run a release of its own fleet',
    });
    // The developer cannot read the other fleet's release: issue 11's reference check answers.
    await expect(devSdk.pine.patch({ resource: 'device', id: d.id, body: { is_running__release: foreign } })).rejects.toMatchObject({ statusCode: 401 });
    expect((await devSdk.models.device.get(d.id, { $select: 'is_running__release' })).is_running__release).toBeNull();
  });

  it('keeps observers and other organizations out', async () => {
    const d = await newDevice();
    // Neither matches a row it may update (the dialect's PATCH of no row): nothing changes.
    await observerSdk.pine.patch({ resource: 'device', id: d.id, body: { is_online: true, os_version: 'observed' } }).catch(() => undefined);
    await strangerSdk.pine.patch({ resource: 'device', id: d.id, body: { is_online: true, os_version: 'hijack' } }).catch(() => undefined);
    const name = `s${hex(3)}`;
    const service = (await ownerSdk.pine.post({ resource: 'service', body: { application: appId, service_name: name } })) as { id: number };
    await observerSdk.pine.patch({ resource: 'service', id: service.id, body: { service_name: 'nope' } }).catch(() => undefined);
    await strangerSdk.pine.patch({ resource: 'service', id: service.id, body: { service_name: 'nope' } }).catch(() => undefined);
    expect(await ownerSdk.models.device.get(d.id, { $select: ['is_online', 'os_version', 'last_connectivity_event'] })).toEqual({ is_online: false, os_version: null, last_connectivity_event: null });
    expect((await ownerSdk.pine.get({ resource: 'service', id: service.id, options: { $select: 'service_name' } }))?.service_name).toBe(name);
  });

  it('does not let anyone write the computed and server-kept fields', async () => {
    const d = await newDevice();
    for (const body of [{ overall_status: 'operational' }, { overall_progress: 5 }, { should_be_running__release: 1 }, { api_heartbeat_at: new Date().toISOString() }]) {
      await expect(ownerSdk.pine.patch({ resource: 'device', id: d.id, body: body as never })).rejects.toMatchObject({ statusCode: 400 });
    }
  });
});
