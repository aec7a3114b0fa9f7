import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { insertDevice } from '../../../test/support/cloud-link.js';
import { createFleet, requester } from '../../../test/support/fleet-helpers.js';

/*
 * Spec 2 §3 `last_update_status_event` (the summary card's "last update status duration"):
 * it moves when a state report changes update_status, not when the same status is reported
 * again, and is readable through the data API.
 */
let t: TestApp;
let owner: SignedUpUser;
let fleetId: number;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await signUp(t.app);
  fleetId = await createFleet(t.app, t.db, owner, 'UpdateStatusFleet');
});
afterAll(() => t?.close());

describe('last_update_status_event', () => {
  it('is set when update_status changes and kept while it stays the same', async () => {
    const device = await insertDevice(t.db, fleetId);
    const req = requester(t.app);
    const report = async (update_status: string) => {
      const res = await req(device.key, 'PATCH', '/device/v3/state', { [device.uuid]: { update_status } });
      expect(res.statusCode, res.body).toBe(200);
    };
    const read = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v7/device(${device.id})?$select=update_status,last_update_status_event`,
        headers: bearer(owner.token),
      });
      return res.json<{ d: { update_status: string | null; last_update_status_event: string | null }[] }>().d[0]!;
    };
    expect(await read()).toEqual({ update_status: null, last_update_status_event: null });

    await report('downloading');
    const first = await read();
    expect(first.update_status).toBe('downloading');
    expect(first.last_update_status_event).not.toBeNull();
    // Backdate it, then report the same status: the time stays.
    await t.db.query(`UPDATE device SET last_update_status_event = '2020-01-01T00:00:00Z' WHERE id = $1`, [device.id]);
    await report('downloading');
    expect((await read()).last_update_status_event).toBe('2020-01-01T00:00:00.000Z');

    await report('done');
    const changed = await read();
    expect(changed.update_status).toBe('done');
    expect(Date.parse(changed.last_update_status_event!)).toBeGreaterThan(Date.parse('2025-01-01T00:00:00Z'));
  });

  it('cannot be written through the data API', async () => {
    const device = await insertDevice(t.db, fleetId);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v7/device(${device.id})`,
      headers: bearer(owner.token),
      payload: { last_update_status_event: '2020-01-01T00:00:00Z' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const { rows } = await t.db.query('SELECT last_update_status_event FROM device WHERE id = $1', [device.id]);
    expect(rows[0]).toEqual({ last_update_status_event: null });
  });
});
