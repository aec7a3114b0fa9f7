import { RELEASE_STATUSES_BLOCKING_VALIDATION, releaseDisplayStatus, type ReleaseStatus } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (spec 2 §4): failed, error, interrupted, cancelled and timeout releases cannot be
 * made valid (is_invalidated false). A running release idle past the timeout counts as
 * timeout, as the dashboard shows it (`releaseDisplayStatus`).
 */
export async function checkReleaseValidation(db: Db, body: HookBody<'release', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (body.is_invalidated !== false || ids.length === 0) return;
  const { rows } = await db.query<{ status: ReleaseStatus; update_timestamp: Date; now: Date }>(
    'SELECT status, update_timestamp, now() AS now FROM release WHERE id = ANY($1::int[])',
    [ids],
  );
  for (const r of rows) {
    const status = (body.status as ReleaseStatus | undefined) ?? releaseDisplayStatus(r.status, r.update_timestamp, r.now);
    if (RELEASE_STATUSES_BLOCKING_VALIDATION.includes(status)) throw new BadRequestError('cannot validate failed releases');
  }
}
