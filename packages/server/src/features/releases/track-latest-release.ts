import type { Db } from '../../infra/db/db.js';

/**
 * Rule (spec 2 §4 release policy): while a fleet has should_track_latest_release, its
 * should_be_running__release is its newest release (created_at, then id) that is final,
 * successful, not invalidated and passing tests (the filter balena-sdk's
 * trackLatestRelease uses); none → null. Run for the fleets concerned whenever a release
 * becomes or stops being such a release, and when tracking is switched on.
 *
 * Devices have no target column: a device's target is its is_pinned_on__release, else its
 * fleet's target, so moving the fleet's target moves every unpinned device with it
 * ("invalidating updates unpinned devices").
 */
export async function refreshTrackedTargets(db: Db, applicationIds: readonly number[], excludingReleases: readonly number[] = []): Promise<void> {
  if (applicationIds.length === 0) return;
  await db.query(
    `UPDATE application a SET should_be_running__release = latest.id
       FROM application x
       LEFT JOIN LATERAL (
         SELECT r.id FROM release r
          WHERE r.belongs_to__application = x.id AND r.status = 'success' AND r.is_final
            AND NOT r.is_invalidated AND r.is_passing_tests AND NOT (r.id = ANY($2::int[]))
          ORDER BY r.created_at DESC, r.id DESC LIMIT 1
       ) latest ON true
      WHERE a.id = x.id AND x.id = ANY($1::int[]) AND x.should_track_latest_release
        AND a.should_be_running__release IS DISTINCT FROM latest.id`,
    [applicationIds, excludingReleases],
  );
}

/** The fleets of some releases. */
export async function fleetsOfReleases(db: Db, releaseIds: readonly number[]): Promise<number[]> {
  if (releaseIds.length === 0) return [];
  const { rows } = await db.query<{ app: number }>('SELECT DISTINCT belongs_to__application AS app FROM release WHERE id = ANY($1::int[])', [releaseIds]);
  return rows.map((r) => r.app);
}
