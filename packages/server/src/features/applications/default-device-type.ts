import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a fleet's default device type changes only to a type of the same CPU architecture
 * (spec 2 §5 Fleets: fleets of different CPU architectures cannot be mixed).
 */
export async function checkDefaultDeviceTypeChange(db: Db, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !('is_for__device_type' in body)) return;
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a
       JOIN device_type cur ON cur.id = a.is_for__device_type
       JOIN device_type nxt ON nxt.id = $2
      WHERE a.id = ANY($1::int[]) AND nxt.is_of__cpu_architecture <> cur.is_of__cpu_architecture
      LIMIT 1`,
    [ids, body.is_for__device_type],
  );
  if (rowCount) {
    throw new BadRequestError('The default device type must have the same CPU architecture: fleets of different CPU architectures cannot be mixed');
  }
}
