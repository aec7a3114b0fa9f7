import type { Db } from '../../infra/db/db.js';

/** The device actions' hand-written SQL. */

/** Whether each given device's type has an LED (its contract's `data.led`; null when it does not say). */
export async function selectDeviceLeds(db: Db, deviceIds: readonly number[]): Promise<{ led: boolean | null }[]> {
  const { rows } = await db.query<{ led: boolean | null }>(
    `SELECT (dt.contract->'data'->>'led')::boolean AS led FROM device d JOIN device_type dt ON dt.id = d.is_of__device_type WHERE d.id = ANY($1::int[])`,
    [deviceIds],
  );
  return rows;
}
