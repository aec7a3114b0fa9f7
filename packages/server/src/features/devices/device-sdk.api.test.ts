import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { eventually, TestLink } from '../../../test/support/cloud-link.js';

// Devices through the published balena-sdk over real HTTP (issue 5): registration as
// `sdk.models.device.register` does it, then the device model calls the dashboard uses.
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let slug: string;
let appId: number;
let otherAppId: number;

const hex = (n = 16) => randomBytes(n).toString('hex');

async function successfulRelease(app: number): Promise<{ id: number; commit: string }> {
  const commit = hex();
  const release = (await sdk.pine.post({ resource: 'release', body: { belongs_to__application: app, commit, status: 'running', source: 'cloud', composition: {} } })) as { id: number };
  const service = (await sdk.pine.post({ resource: 'service', body: { application: app, service_name: `main${hex(3)}` } })) as { id: number };
  const image = (await sdk.pine.post({ resource: 'image', body: { is_a_build_of__service: service.id, status: 'success' } })) as { id: number };
  await sdk.pine.post({ resource: 'image__is_part_of__release', body: { image: image.id, is_part_of__release: release.id } });
  await sdk.pine.patch({ resource: 'release', id: release.id, body: { status: 'success' } });
  return { id: release.id, commit };
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  const app = await sdk.models.application.create({ name: 'SdkDevices', deviceType: 'raspberrypi3', organization: owner.username });
  appId = app.id;
  slug = (await sdk.models.application.get(appId, { $select: 'slug' })).slug;
  otherAppId = (await sdk.models.application.create({ name: 'SdkDevicesOther', deviceType: 'beaglebone-black', organization: owner.username })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('devices through balena-sdk', () => {
  it('registers a device with device.register and lists it with getAllByApplication', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    const registered = await sdk.models.device.register(slug, uuid);
    expect(registered).toMatchObject({ id: expect.any(Number), uuid, api_key: expect.any(String) });
    const devices = await sdk.models.device.getAllByApplication(slug, { $select: ['id', 'uuid', 'device_name'] });
    expect(devices.map((d) => d.uuid)).toContain(uuid);
    // The device key works for the device API.
    const res = await fetch(`${apiUrl}/device/v3/${uuid}/state`, { headers: { authorization: `Bearer ${registered.api_key}` } });
    expect(res.status).toBe(200);
  });

  it('renames, pins, tracks the fleet again, moves and removes a device', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    const { id } = await sdk.models.device.register(appId, uuid);
    await sdk.models.device.rename(uuid, 'kitchen-sensor');
    expect((await sdk.models.device.get(id, { $select: 'device_name' })).device_name).toBe('kitchen-sensor');

    const release = await successfulRelease(appId);
    await sdk.models.device.pinToRelease(uuid, release.commit);
    const pinned = await sdk.models.device.get(uuid, { $select: 'is_pinned_on__release' });
    expect(pinned.is_pinned_on__release).toEqual({ __id: release.id });
    expect(await sdk.models.device.isTrackingApplicationRelease(uuid)).toBe(false);
    await sdk.models.device.trackApplicationRelease(uuid);
    expect(await sdk.models.device.isTrackingApplicationRelease(uuid)).toBe(true);

    await sdk.models.device.move(uuid, otherAppId);
    const moved = await sdk.models.device.get(uuid, { $select: 'belongs_to__application' });
    expect(moved.belongs_to__application).toEqual({ __id: otherAppId });

    await sdk.models.device.remove(uuid);
    await expect(sdk.models.device.get(uuid)).rejects.toThrow(/not found/i);
  });

  it('reads what a device runs with getWithServiceDetails', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    const { api_key } = await sdk.models.device.register(appId, uuid);
    const release = await successfulRelease(appId);
    await sdk.models.device.pinToRelease(uuid, release.commit);
    const app = await sdk.models.application.get(appId, { $select: 'uuid' });
    const serviceName = (await sdk.pine.get({ resource: 'service', options: { $select: 'service_name', $filter: { application: appId }, $orderby: { id: 'desc' }, $top: 1 } }))[0]!
      .service_name as string;
    const report = await fetch(`${apiUrl}/device/v3/state`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ [uuid]: { apps: { [app.uuid]: { release_uuid: release.commit, releases: { [release.commit]: { services: { [serviceName]: { status: 'Running' } } } } } } } }),
    });
    expect(report.status).toBe(200);
    const device = await sdk.models.device.getWithServiceDetails(uuid);
    const byService = device.current_services_by_app[slug]!;
    expect(Object.keys(byService)).toEqual([serviceName]);
    expect(byService[serviceName]![0]).toMatchObject({ status: 'Running', commit: release.commit, release_id: release.id });
    expect(device.is_running__release).toEqual({ __id: release.id });
  });

  it('sets, lists, updates and removes device tags with device.tags', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    const { id } = await sdk.models.device.register(appId, uuid);
    const other = await sdk.models.device.register(appId, sdk.models.device.generateUniqueKey());
    await sdk.models.device.tags.set(uuid, 'room', 'kitchen');
    await sdk.models.device.tags.set(id, 'floor', '1');
    await sdk.models.device.tags.set(other.id, 'room', 'garage');
    // Setting a known key again changes its value (the SDK upserts: POST, then PATCH on 409).
    await sdk.models.device.tags.set(uuid, 'room', 'pantry');

    const mine = await sdk.models.device.tags.getAllByDevice(uuid, { $select: ['tag_key', 'value'], $orderby: { tag_key: 'asc' } });
    expect(mine).toEqual([
      { tag_key: 'floor', value: '1' },
      { tag_key: 'room', value: 'pantry' },
    ]);
    const inFleet = await sdk.models.device.tags.getAllByApplication(slug, { $select: ['tag_key', 'value'], $expand: { device: { $select: 'uuid' } } });
    expect(inFleet.filter((tag) => tag.device[0]!.uuid === other.uuid).map((tag) => [tag.tag_key, tag.value])).toEqual([['room', 'garage']]);
    expect(inFleet.filter((tag) => tag.device[0]!.uuid === uuid)).toHaveLength(2);

    // A second row for the same (device, tag_key) is a unique-key conflict.
    const dup = await fetch(`${apiUrl}/v7/device_tag`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device: id, tag_key: 'room', value: 'attic' }),
    });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toBe('Unique key constraint violated');

    await sdk.models.device.tags.remove(uuid, 'room');
    expect((await sdk.models.device.tags.getAllByDevice(uuid, { $select: 'tag_key' })).map((tag) => tag.tag_key)).toEqual(['floor']);
    expect((await sdk.models.device.tags.getAllByDevice(other.id, { $select: 'value' })).map((tag) => tag.value)).toEqual(['garage']);
  });

  it('identifies (blinks) a device over its cloud link, and refuses when it has none', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    const { id, api_key } = await sdk.models.device.register(appId, uuid);
    await expect(sdk.models.device.identify(uuid)).rejects.toThrow(/No online device\(s\) found/);

    const link = await TestLink.open(apiUrl, api_key);
    try {
      await eventually(() => sdk.models.device.get(id, { $select: 'is_online' }), (d) => d.is_online);
      await sdk.models.device.identify(uuid);
      expect(link.actions.map((a) => a.action)).toEqual(['blink']);
    } finally {
      await link.close();
    }
    await eventually(() => sdk.models.device.get(id, { $select: 'is_online' }), (d) => !d.is_online);
    await expect(sdk.models.device.identify(id)).rejects.toThrow(/No online device\(s\) found/);
    expect(link.actions).toHaveLength(1);
  });
});
