import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

/*
 * Spec 2 §5 Fleets, device-type option states: the server, not only the create dialog,
 * refuses a fleet for a discontinued type, or a single-container type under a multi-container
 * application type; a refused create leaves no fleet behind.
 */
let t: TestApp;
let owner: SignedUpUser;
let apiUrl: string;

const idOf = async (table: string, slug: string) =>
  (await t.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE slug = $1`, [slug])).rows[0]!.id;
const fleetsNamed = async (name: string) =>
  (await t.db.query('SELECT 1 FROM application WHERE app_name = $1', [name])).rowCount;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
});
afterAll(() => t?.close());

describe('creating a fleet', () => {
  it('refuses a discontinued device type through balena-sdk, naming the type and what to do', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    await expect(sdk.models.application.create({ name: 'DiscontinuedFleet', deviceType: 'fincm3', organization: owner.username })).rejects.toThrow(
      'The device type Balena Fin (CM3) is discontinued: it is unavailable for new fleets. Choose another device type.',
    );
    expect(await fleetsNamed('DiscontinuedFleet')).toBe(0);
    const ok = await sdk.models.application.create({ name: 'ReleasedFleet', deviceType: 'beaglebone-black', organization: owner.username });
    expect(ok.id).toBeGreaterThan(0);
  });

  it('refuses a single-container type for the default multi-container application type, and accepts it for a single-container one', async () => {
    // No seeded board is single-container (balena's catalogue has none; issue 12): a test-only contract.
    await t.db.query(
      `INSERT INTO device_type (slug, name, is_of__cpu_architecture, contract)
       SELECT 'test-one-container', 'Test One Container', id, $1::jsonb FROM cpu_architecture WHERE slug = 'rpi'`,
      [JSON.stringify({ slug: 'test-one-container', type: 'hw.device-type', data: { arch: 'rpi', state: 'released', multicontainer: false } })],
    );
    const single = await idOf('device_type', 'test-one-container');
    const post = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/v7/application', headers: bearer(owner.token), payload: { organization: owner.orgId, is_for__device_type: single, ...body } });
    const refused = await post({ app_name: 'PiOneMulti' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatch(/does not support multiple containers/);
    expect(await fleetsNamed('PiOneMulti')).toBe(0);
    const accepted = await post({ app_name: 'PiOneEssentials', application_type: await idOf('application_type', 'essentials') });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });
});
// Changing the default to a discontinued type: fleet-settings.test.ts › default device type.
