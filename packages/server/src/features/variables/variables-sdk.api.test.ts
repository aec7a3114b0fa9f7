import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Variables through the published balena-sdk over real HTTP (spec 2 §7 Variables): the
// SDK's `set` is an upsert (POST; on 409 'Unique key constraint violated' a PATCH by
// filter), `get` and `remove` filter by (parent, name).
let t: TestApp;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let slug: string;
let appId: number;
let uuid: string;
let deviceId: number;
let serviceId: number;

const hex = (n = 4) => randomBytes(n).toString('hex');
const names = (vars: { name: string; value: string }[]) => vars.map((v) => [v.name, v.value]);

beforeAll(async () => {
  t = await buildTestApp();
  const apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  const app = await sdk.models.application.create({ name: `SdkVars${hex()}`, organization: owner.username, deviceType: 'raspberrypi3' });
  appId = app.id;
  slug = (await sdk.models.application.get(appId, { $select: 'slug' })).slug;
  const dt = await sdk.models.deviceType.get('raspberrypi3', { $select: 'id' });
  uuid = hex(16);
  deviceId = ((await sdk.pine.post({ resource: 'device', body: { uuid, belongs_to__application: appId, is_of__device_type: dt.id } })) as { id: number }).id;
  serviceId = ((await sdk.pine.post({ resource: 'service', body: { application: appId, service_name: 'main' } })) as { id: number }).id;
  // Service installs come from the device's state reports (the device API); inserted here.
  await t.db.query('INSERT INTO service_install (device, installs__service) VALUES ($1, $2)', [deviceId, serviceId]);
});
afterAll(async () => {
  await t?.close();
});

describe('balena-sdk fleet variables', () => {
  it('sets, overwrites, lists, reads and removes environment variables', async () => {
    const env = sdk.models.application.envVar;
    await env.set(slug, 'GREETING', 'hello');
    await env.set(appId, 'GREETING', 'hi'); // an upsert: the duplicate POST becomes a PATCH
    await env.set(slug, 'A_FIRST', 1 as unknown as string);
    expect(await env.get(slug, 'GREETING')).toBe('hi');
    expect(names(await env.getAllByApplication(slug))).toEqual([
      ['A_FIRST', '1'],
      ['GREETING', 'hi'],
    ]);
    await env.remove(slug, 'GREETING');
    expect(await env.get(slug, 'GREETING')).toBeUndefined();
    expect(names(await env.getAllByApplication(appId))).toEqual([['A_FIRST', '1']]);
  });

  it('manages configuration variables and refuses names outside the rules with the spec message', async () => {
    const cfg = sdk.models.application.configVar;
    await cfg.set(slug, 'BALENA_SUPERVISOR_POLL_INTERVAL', '60000');
    await cfg.set(slug, 'BALENA_SUPERVISOR_POLL_INTERVAL', '120000');
    expect(await cfg.get(slug, 'BALENA_SUPERVISOR_POLL_INTERVAL')).toBe('120000');
    expect(names(await cfg.getAllByApplication(slug))).toEqual([['BALENA_SUPERVISOR_POLL_INTERVAL', '120000']]);
    await expect(cfg.set(slug, 'BAD-NAME', '1')).rejects.toThrow(
      'Configuration variables should start with a letter and only contain letters, digits, underscores or a colon.',
    );
    await expect(sdk.models.application.envVar.set(slug, 'BALENA_SUPERVISOR_POLL_INTERVAL', '1')).rejects.toThrow(
      'Configuration variables are managed through the Configuration page.',
    );
    await cfg.remove(slug, 'BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(await cfg.getAllByApplication(slug)).toEqual([]);
  });

  it('manages build variables', async () => {
    const build = sdk.models.application.buildVar;
    await build.set(slug, 'NODE_VERSION', '22');
    await build.set(slug, 'NODE_VERSION', '24');
    expect(await build.get(slug, 'NODE_VERSION')).toBe('24');
    await build.remove(slug, 'NODE_VERSION');
    expect(await build.getAllByApplication(slug)).toEqual([]);
  });
});

describe('balena-sdk device variables', () => {
  it('sets, lists, reads and removes device environment variables', async () => {
    const env = sdk.models.device.envVar;
    await env.set(uuid, 'MODE', 'eco');
    await env.set(deviceId, 'MODE', 'turbo');
    expect(await env.get(uuid, 'MODE')).toBe('turbo');
    expect(names(await env.getAllByDevice(uuid))).toEqual([['MODE', 'turbo']]);
    expect(names(await env.getAllByApplication(slug))).toEqual([['MODE', 'turbo']]);
    await expect(env.set(uuid, 'RESIN_API_KEY', 'x')).rejects.toThrow('This environment variable is reserved and cannot be used.');
    await env.remove(uuid, 'MODE');
    expect(await env.get(uuid, 'MODE')).toBeUndefined();
  });

  it('sets device configuration variables, the lock override among them', async () => {
    const cfg = sdk.models.device.configVar;
    await cfg.set(uuid, 'BALENA_HOST_CONFIG_gpu_mem', '64');
    expect(await cfg.get(uuid, 'BALENA_HOST_CONFIG_gpu_mem')).toBe('64');
    await sdk.models.device.enableLockOverride(uuid);
    expect(await sdk.models.device.hasLockOverride(uuid)).toBe(true);
    await sdk.models.device.disableLockOverride(uuid);
    expect(await sdk.models.device.hasLockOverride(uuid)).toBe(false);
    expect(names(await cfg.getAllByDevice(uuid))).toEqual([
      ['BALENA_HOST_CONFIG_gpu_mem', '64'],
      ['RESIN_OVERRIDE_LOCK', '0'],
    ]);
    await cfg.remove(uuid, 'BALENA_HOST_CONFIG_gpu_mem');
    expect(names(await cfg.getAllByApplication(appId))).toEqual([['RESIN_OVERRIDE_LOCK', '0']]);
  });
});

describe('balena-sdk service variables', () => {
  it('manages service variables by service id and by (application, service_name)', async () => {
    const v = sdk.models.service.var;
    await v.set(serviceId, 'PORT', '80');
    await v.set({ application: slug, service_name: 'main' }, 'PORT', '8080');
    expect(await v.get(serviceId, 'PORT')).toBe('8080');
    expect(names(await v.getAllByService(serviceId))).toEqual([['PORT', '8080']]);
    expect(names(await v.getAllByApplication(slug))).toEqual([['PORT', '8080']]);
    await v.remove(serviceId, 'PORT');
    expect(await v.getAllByService({ application: slug, service_name: 'main' })).toEqual([]);
  });

  it("manages a device's service overrides by service name or id", async () => {
    const sv = sdk.models.device.serviceVar;
    await sv.set(uuid, 'main', 'PORT', '9000');
    await sv.set(deviceId, serviceId, 'PORT', '9001');
    expect(await sv.get(uuid, 'main', 'PORT')).toBe('9001');
    expect(await sv.get(deviceId, serviceId, 'PORT')).toBe('9001');
    expect(names(await sv.getAllByDevice(uuid))).toEqual([['PORT', '9001']]);
    expect(names(await sv.getAllByApplication(slug))).toEqual([['PORT', '9001']]);
    await expect(sv.set(uuid, 'nosuchservice', 'PORT', '1')).rejects.toThrow(/nosuchservice/);
    await sv.remove(uuid, 'main', 'PORT');
    expect(await sv.getAllByDevice(uuid)).toEqual([]);
  });
});
