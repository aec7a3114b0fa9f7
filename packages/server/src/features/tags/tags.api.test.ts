import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Tag key rules (dialect §3 "Key/value tables"), enforced by the server for every tag
// resource: reserved namespaces and whitespace are a 400 with the message, and nothing is stored.
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let appId: number;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  appId = (await sdk.models.application.create({ name: 'TagRules', deviceType: 'raspberrypi3', organization: owner.username })).id;
});
afterAll(async () => {
  await t?.close();
});

const post = (resource: string, body: object) =>
  fetch(`${apiUrl}/v7/${resource}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('tag keys', () => {
  it('refuses reserved and whitespace device tag keys through the SDK and stores nothing', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    await sdk.models.device.register(appId, uuid);
    await expect(sdk.models.device.tags.set(uuid, 'io.balena.managed', '1')).rejects.toThrow('Tag keys beginning with io.balena. are reserved.');
    await expect(sdk.models.device.tags.set(uuid, 'io.resin.x', '1')).rejects.toThrow('Tag keys beginning with io.resin. are reserved.');
    await expect(sdk.models.device.tags.set(uuid, 'my room', 'kitchen')).rejects.toThrow('Tag keys cannot contain whitespace.');
    expect(await sdk.models.device.tags.getAllByDevice(uuid, { $select: 'tag_key' })).toEqual([]);
    // An ordinary key still works, and io.balena without the dot is not the namespace.
    await sdk.models.device.tags.set(uuid, 'io.balenax', 'ok');
    expect((await sdk.models.device.tags.getAllByDevice(uuid, { $select: 'tag_key' })).map((tag) => tag.tag_key)).toEqual(['io.balenax']);
  });

  it('answers 400 with the message on a raw POST, for fleet and release tags too', async () => {
    const { id: deviceId } = await sdk.models.device.register(appId, sdk.models.device.generateUniqueKey());
    const device = await post('device_tag', { device: deviceId, tag_key: 'io.resin.foo', value: 'x' });
    expect(device.status).toBe(400);
    expect(await device.json()).toBe('Tag keys beginning with io.resin. are reserved.');
    const fleet = await post('application_tag', { application: appId, tag_key: 'a b', value: 'x' });
    expect(fleet.status).toBe(400);
    expect(await fleet.json()).toBe('Tag keys cannot contain whitespace.');
    expect(await sdk.models.application.tags.getAllByApplication(appId, { $select: 'tag_key' })).toEqual([]);
  });
});
