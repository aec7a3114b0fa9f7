import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';

/**
 * Rule: a release that is a fleet's target (should_be_running__release, pinned or tracked)
 * or a device's pin (is_pinned_on__release) cannot be deleted.
 */
export async function checkDeletePinned(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const { rowCount } = await db.query(
    `SELECT 1 FROM application WHERE should_be_running__release = ANY($1::int[])
     UNION ALL
     SELECT 1 FROM device WHERE is_pinned_on__release = ANY($1::int[])
     LIMIT 1`,
    [ids],
  );
  if (rowCount > 0) throw new BadRequestError('cannot delete pinned releases');
}
