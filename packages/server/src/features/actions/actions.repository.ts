import type { ActionDeviceFacts } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The device actions' hand-written SQL. */

/**
 * What an action's needs are checked against, per device: its overall status and whether its
 * type has an LED (the contract's `data.led`; false when it does not say).
 */
export async function selectActionFacts(db: Db, deviceIds: readonly number[]): Promise<ActionDeviceFacts[]> {
  const { rows } = await db.query<ActionDeviceFacts>(
    `SELECT d.overall_status, coalesce((dt.contract->'data'->>'led')::boolean, false) AS led
       FROM device d JOIN device_type dt ON dt.id = d.is_of__device_type WHERE d.id = ANY($1::int[])`,
    [deviceIds],
  );
  return rows;
}
