import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from './api-keys.js';
import { buildTestApp, bearer, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet } from '../../../test/support/fleet-helpers.js';

// Issue 22: every key a person may copy is letters and digits only (a key starting with "-"
// reads as an option on a command line); keys issued before in base64url keep working.
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let fleet: number;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  fleet = await createFleet(t.app, t.db, owner, 'KeyAlphabetFleet');
});
afterAll(async () => {
  await t?.close();
});

describe('generated keys', () => {
  it('user API keys, provisioning keys and device keys are 33 letters and digits', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const keys: string[] = [];
    for (let i = 0; i < 20; i++) keys.push(await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: new Date(Date.now() + 86_400_000).toISOString() }));
    keys.push(await sdk.models.apiKey.create({ name: 'alphabet', expiryDate: null }));
    const provisioning = keys[0]!;
    const uuid = 'a'.repeat(32);
    const registered = await fetch(`${apiUrl}/device/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provisioning}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: owner.userId, application: fleet, device_type: 'raspberrypi3', uuid }),
    });
    expect(registered.status).toBe(201);
    keys.push(((await registered.json()) as { api_key: string }).api_key);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{33}$/);
  });

  it('a key issued before in base64url, starting with "-", still authenticates', async () => {
    const old = '-Xy_3k9Qw-Zr7Tn1Lp0Vb8Mc2Sd4Fe6Gh';
    await t.db.query('INSERT INTO api_key (key, name, is_of__actor) VALUES ($1, $2, $3)', [hashApiKey(old), 'old format', owner.actorId]);
    const res = await t.app.inject({ method: 'GET', url: '/actor/v1/whoami', headers: bearer(old) });
    expect(res.statusCode).toBe(200);
  });
});
