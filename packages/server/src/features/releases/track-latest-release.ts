import type { Db } from '../../infra/db/db.js';
import { selectFleetsOfReleases, updateTrackedTargets } from './release.repository.js';

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
  await updateTrackedTargets(db, applicationIds, excludingReleases);
}

/** The fleets of some releases. */
export async function fleetsOfReleases(db: Db, releaseIds: readonly number[]): Promise<number[]> {
  if (releaseIds.length === 0) return [];
  return selectFleetsOfReleases(db, releaseIds);
}
