import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configVarsDocument, DEFAULT_POLL_INTERVAL_MS, DEVICE_TYPES, WHITELISTED_CONFIG_NAMES, WHITELISTED_CONFIG_NAMESPACES } from '@flotilla/model';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

// Issue 16: `GET /config/vars?deviceType=` feeds the dashboard's configuration pages: the
// name rules with the whitelist, and the schema of the device type exactly as the model's
// device-type contracts declare it (description, enum, default, format, will_reboot).
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = async (query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/config/vars${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /config/vars', () => {
  it("answers each seeded device type's schema from the model's contracts, by slug and by alias", async () => {
    for (const dt of DEVICE_TYPES) {
      expect(await get(`?deviceType=${dt.slug}`), dt.slug).toEqual(configVarsDocument(dt.configVars));
      for (const alias of dt.aliases ?? []) expect(await get(`?deviceType=${alias}`), alias).toEqual(configVarsDocument(dt.configVars));
    }
  });

  it('carries the whitelist, and the format of the properties that have one', async () => {
    const body = await get('?deviceType=raspberrypi4-64');
    expect(body.whiteListedNames).toEqual([...WHITELISTED_CONFIG_NAMES]);
    expect(body.whiteListedNamespaces).toEqual([...WHITELISTED_CONFIG_NAMESPACES]);
    const p = body.configVarSchema.properties;
    expect(p.BALENA_SUPERVISOR_POLL_INTERVAL).toMatchObject({ type: 'integer', format: 'milliseconds', default: String(DEFAULT_POLL_INTERVAL_MS) });
    expect(p.BALENA_HOST_CONFIG_gpu_mem).toMatchObject({ type: 'integer', format: 'megabytes', will_reboot: true });
    expect(p.BALENA_HOST_CONFIG_dtoverlay).toMatchObject({ type: 'string', format: 'list' });
    expect(p.BALENA_SUPERVISOR_DELTA).toMatchObject({ enum: ['false', 'true'], default: 'false' });
  });

  it('answers the rules with an empty schema without a device type or for an unknown one', async () => {
    expect(await get()).toEqual(configVarsDocument({}));
    expect(await get('?deviceType=no-such-board')).toEqual(configVarsDocument({}));
  });
});
