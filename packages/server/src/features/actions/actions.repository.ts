import { LOCAL_MODE_VARIABLES, type ActionDeviceFacts } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The device actions' hand-written SQL. */

/**
 * What an action's needs are checked against, per device: its overall status, whether its
 * type has an LED (the contract's `data.led`; false when it does not say) and whether it is in
 * local mode (a local-mode config variable of '1').
 */
export async function selectActionFacts(db: Db, deviceIds: readonly number[]): Promise<(ActionDeviceFacts & { id: number })[]> {
  const { rows } = await db.query<ActionDeviceFacts & { id: number }>(
    `SELECT d.id, d.overall_status, coalesce((dt.contract->'data'->>'led')::boolean, false) AS led,
            EXISTS (SELECT 1 FROM device_config_variable v WHERE v.device = d.id AND v.name = ANY($2::text[]) AND v.value = '1') AS local_mode
       FROM device d JOIN device_type dt ON dt.id = d.is_of__device_type WHERE d.id = ANY($1::int[])`,
    [deviceIds, [...LOCAL_MODE_VARIABLES]],
  );
  return rows;
}
