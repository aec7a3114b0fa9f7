import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, insertFleet, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

/*
 * The reads behind the dashboard's application lists and create dialog (spec 2 §5, §7):
 * the list with each application's device overall statuses in one request, ordered by name,
 * the case-insensitive name lookup, and the device-type states the seed writes.
 */
let t: TestApp;
let owner: SignedUpUser;
let stranger: SignedUpUser;

async function insertDevice(fleetId: number, facts: Record<string, unknown>): Promise<void> {
  const actor = await t.db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id');
  const type = await t.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`);
  const cols: Record<string, unknown> = {
    actor: actor.rows[0]!.id,
    uuid: `${fleetId}${Math.random().toString(16).slice(2)}`.padEnd(32, '0').slice(0, 32),
    device_name: 'd',
    belongs_to__application: fleetId,
    is_of__device_type: type.rows[0]!.id,
    ...facts,
  };
  const names = Object.keys(cols);
  await t.db.query(
    `INSERT INTO device (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(cols),
  );
}

const get = async (token: string, url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ d: Record<string, unknown>[] }>().d;
};

beforeAll(async () => {
  t = await buildTestApp();
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
});
afterAll(() => t?.close());

describe('the application list', () => {
  it('gives each fleet the overall status of each device it may read, ordered by app_name', async () => {
    const zulu = await insertFleet(t.db, owner, 'zulu-fleet');
    const alpha = await insertFleet(t.db, owner, 'Alpha-fleet');
    await insertFleet(t.db, owner, 'mid-block', { is_of__class: 'block' });
    await insertDevice(alpha, { is_active: false });
    await insertDevice(alpha, { is_online: true, api_heartbeat_state: 'online', last_connectivity_event: new Date() });
    await insertDevice(alpha, { is_online: true, api_heartbeat_state: 'online', last_connectivity_event: new Date() });

    const url =
      "/v7/application?$select=id,app_name&$filter=is_of__class eq 'fleet'&$expand=owns__device($select=overall_status)&$orderby=app_name asc";
    const rows = await get(owner.token, url);
    expect(rows.map((r) => r.app_name)).toEqual(['Alpha-fleet', 'zulu-fleet']);
    const statuses = (rows[0]!.owns__device as { overall_status: string }[]).map((d) => d.overall_status).sort();
    expect(statuses).toEqual(['inactive', 'operational', 'operational']);
    expect(rows[1]).toMatchObject({ id: zulu, owns__device: [] });
    // Another user reads neither the fleets nor their devices.
    expect(await get(stranger.token, url)).toEqual([]);
  });

  it('finds the user’s applications by name whatever the case (the create dialog’s clash check)', async () => {
    await insertFleet(t.db, owner, 'Edge-Gateway', { is_of__class: 'block' });
    const filter = encodeURIComponent("tolower(app_name) eq 'edge-gateway'");
    expect(await get(owner.token, `/v7/application?$select=app_name,is_of__class&$filter=${filter}`)).toEqual([
      { app_name: 'Edge-Gateway', is_of__class: 'block' },
    ]);
    expect(await get(stranger.token, `/v7/application?$select=app_name&$filter=${filter}`)).toEqual([]);
  });
});

describe('the seeded device-type contracts', () => {
  it('record whether each type is released or discontinued, and that every board runs several containers', async () => {
    const rows = await get(owner.token, '/v7/device_type?$select=slug,contract');
    const data = new Map(rows.map((r) => [r.slug as string, (r.contract as { data: Record<string, unknown> }).data]));
    expect(data.get('raspberrypi4-64')).toMatchObject({ state: 'released', paidOnly: false, multicontainer: true });
    expect(data.get('fincm3')).toMatchObject({ state: 'discontinued' });
    expect(data.get('raspberry-pi')).toMatchObject({ state: 'released', multicontainer: true });
  });
});
