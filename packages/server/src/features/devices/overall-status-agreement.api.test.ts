import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_HEARTBEAT_STATES, deviceOverallProgress, deviceOverallStatus, type DeviceStatusFacts } from '@flotilla/model';
import { buildTestApp, insertFleet, signUp, type TestApp } from '../../../test/harness.js';
import { deviceTypeId, insertDevice } from '../../../test/support/fleet-helpers.js';

// Issue 13 item 6: the overall_status precedence is declared once, as the model's
// deviceOverallStatus/deviceOverallProgress; the database computes the same as generated
// columns (migration 0024). Every combination of each fact's relevant classes is written to a
// real device row, and the columns PostgreSQL generates must equal what the functions answer.
const CLASSES = {
  is_active: [true, false],
  provisioning_state: [null, 'Post-Provisioning', 'Provisioned'],
  is_online: [true, false],
  api_heartbeat_state: API_HEARTBEAT_STATES,
  last_connectivity_event: [null, '2026-01-01T00:00:00.000Z'],
  status: [null, 'Downloading', 'Idle'],
  // 0 is a progress too (not "none"): a function that tested truthiness would differ here.
  download_progress: [null, 0, 50],
  provisioning_progress: [null, 0, 30],
} as const satisfies { [K in keyof DeviceStatusFacts]: readonly DeviceStatusFacts[K][] };

function combinations(): DeviceStatusFacts[] {
  let out: Partial<DeviceStatusFacts>[] = [{}];
  for (const [field, values] of Object.entries(CLASSES)) {
    out = out.flatMap((partial) => (values as readonly unknown[]).map((value) => ({ ...partial, [field]: value })));
  }
  return out as DeviceStatusFacts[];
}

let t: TestApp;
let deviceId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const owner = await signUp(t.app);
  const fleetId = await insertFleet(t.db, owner, 'StatusAgreement');
  deviceId = await insertDevice(t.db, fleetId, await deviceTypeId(t.db, 'raspberrypi3'));
});
afterAll(async () => {
  await t?.close();
});

describe('overall_status: the generated column and deviceOverallStatus agree', () => {
  it('on every combination of the facts', async () => {
    const all = combinations();
    expect(all).toHaveLength(2 * 3 * 2 * 4 * 2 * 3 * 3 * 3);
    const fields = Object.keys(CLASSES) as (keyof DeviceStatusFacts)[];
    const sql = `UPDATE device SET ${fields.map((f, i) => `"${f}" = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING overall_status, overall_progress`;
    const disagreements: unknown[] = [];
    const statuses = new Set<string>();
    for (const facts of all) {
      const { rows } = await t.db.query<{ overall_status: string; overall_progress: number | null }>(sql, [deviceId, ...fields.map((f) => facts[f])]);
      const db = rows[0]!;
      const model = { overall_status: deviceOverallStatus(facts), overall_progress: deviceOverallProgress(facts) };
      statuses.add(db.overall_status);
      if (db.overall_status !== model.overall_status || db.overall_progress !== model.overall_progress) disagreements.push({ facts, db, model });
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    expect(disagreements).toHaveLength(0);
    // The combinations reach every status, so the comparison covers each branch.
    expect([...statuses].sort()).toEqual(['configuring', 'disconnected', 'inactive', 'operational', 'post-provisioning', 'reduced-functionality', 'updating']);
  });
});
