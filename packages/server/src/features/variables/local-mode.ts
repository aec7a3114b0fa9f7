import { DEVICE_RULE_MESSAGES, LOCAL_MODE_VARIABLES, supportsLocalMode } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { selectDevicesSettingVariables } from './variable.repository.js';

/**
 * Rule (spec 2 §4, §5): local mode (`RESIN_SUPERVISOR_LOCAL_MODE` / `BALENA_…` = '1' on a
 * device) needs a dev OS variant and a supervisor of 4 or newer. Checked on the written rows,
 * after the engine's permission checks, so a refusal says nothing about other devices.
 */
export async function checkLocalMode(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await selectDevicesSettingVariables(db, ids, LOCAL_MODE_VARIABLES);
  if (rows.some((device) => !supportsLocalMode(device))) throw new BadRequestError(DEVICE_RULE_MESSAGES.local_mode_unsupported);
}
