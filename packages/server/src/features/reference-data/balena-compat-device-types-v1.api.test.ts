import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sdkClient, signUp, type TestApp } from '../../../test/harness.js';

// Issue 12: balena-sdk's config model reads the legacy device-type manifests
// (GET /device-types/v1) for getDeviceTypes, getDeviceTypeManifestBySlug and getDeviceOptions.
let t: TestApp;
let apiUrl: string;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

describe('GET /device-types/v1 through balena-sdk', () => {
  it('lists every catalogue type with its architecture, aliases and state, signed in or not', async () => {
    const anonymous = sdkClient(apiUrl);
    const types = (await anonymous.models.config.getDeviceTypes()) as unknown as Array<{ slug: string; arch: string; aliases: string[]; state: string }>;
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_type');
    expect(types).toHaveLength(rows[0]!.n);
    expect(types.find((d) => d.slug === 'raspberrypi4-64')).toMatchObject({ arch: 'aarch64', aliases: ['raspberrypi4'], state: 'RELEASED' });
    expect(types.find((d) => d.slug === 'fincm3')).toMatchObject({ state: 'DISCONTINUED' });
    const signedIn = sdkClient(apiUrl);
    await signedIn.auth.loginWithToken((await signUp(t.app)).token);
    expect(await signedIn.models.config.getDeviceTypes()).toHaveLength(types.length);
  });

  it('finds one manifest by slug, alias or name, and BalenaInvalidDeviceType for an unknown one', async () => {
    const sdk = sdkClient(apiUrl);
    expect(await sdk.models.config.getDeviceTypeManifestBySlug('raspberrypi4')).toMatchObject({ slug: 'raspberrypi4-64' });
    expect(await sdk.models.config.getDeviceTypeManifestBySlug('Raspberry Pi 2')).toMatchObject({ slug: 'raspberry-pi2', arch: 'armv7hf' });
    await expect(sdk.models.config.getDeviceTypeManifestBySlug('no-such-board')).rejects.toMatchObject({ code: 'BalenaInvalidDeviceType' });
    const one = await t.app.inject({ method: 'GET', url: '/device-types/v1/raspberrypi' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ slug: 'raspberry-pi', arch: 'rpi' });
    expect((await t.app.inject({ method: 'GET', url: '/device-types/v1/no-such-board' })).statusCode).toBe(404);
  });

  it('answers getDeviceOptions with the image questions: network, wifi and the update interval', async () => {
    const sdk = sdkClient(apiUrl);
    const options = (await sdk.models.config.getDeviceOptions('raspberrypi3')) as unknown as Array<{ name: string; options?: Array<{ name: string }> }>;
    expect(options.map((o) => o.name)).toEqual(['network', 'advanced']);
    expect(options[0]!.options!.map((o) => o.name)).toEqual(['network', 'wifiSsid', 'wifiKey']);
    expect(options[1]!.options!.map((o) => o.name)).toEqual(['appUpdatePollInterval']);
  });
});
