import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { isTargetOrPin } from './release.repository.js';

/**
 * Rule: a release that is a fleet's target (should_be_running__release, pinned or tracked)
 * or a device's pin (is_pinned_on__release) cannot be deleted.
 */
export async function checkDeletePinned(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (await isTargetOrPin(db, ids)) throw new BadRequestError('cannot delete pinned releases');
}
