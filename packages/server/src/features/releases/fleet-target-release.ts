import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a fleet's target release (should_be_running__release) is a successful release of
 * that fleet, or null. Naming a target without should_track_latest_release pins the fleet
 * (tracking off), as balena-sdk's pinToRelease does explicitly; otherwise the server would
 * move a tracking fleet straight back to its latest release.
 */
export async function checkFleetTargetRelease(db: Db, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('should_be_running__release' in body)) return;
  if (!('should_track_latest_release' in body)) body.should_track_latest_release = false;
  const target = body.should_be_running__release;
  if (target === null || ids.length === 0) return;
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT r.status = 'success' AND r.belongs_to__application = ALL($2::int[]) AS ok FROM release r WHERE r.id = $1`,
    [target, ids],
  );
  // The same answer whether the release is missing or another fleet's: nothing leaks.
  if (!rows[0]?.ok) throw new BadRequestError('The target release must be a successful release of this fleet');
}
