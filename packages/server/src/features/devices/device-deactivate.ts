import { deactivateProblem, DEVICE_RULE_MESSAGES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (spec 2 §4 deactivate): only an active, disconnected device is deactivated; an
 * inactive one answers 'device already inactive', a linked one 'device must be offline'.
 * `ids` are the rows the caller may update (the engine's permission filter ran first).
 */
export async function checkDeactivation(db: Db, body: HookBody<'device', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (body.is_active !== false || ids.length === 0) return;
  const { rows } = await db.query<{ is_active: boolean; is_online: boolean }>(
    'SELECT is_active, is_online FROM device WHERE id = ANY($1::int[]) ORDER BY id',
    [ids],
  );
  for (const row of rows) {
    const problem = deactivateProblem(row);
    if (problem) throw new BadRequestError(DEVICE_RULE_MESSAGES[problem]);
  }
}
