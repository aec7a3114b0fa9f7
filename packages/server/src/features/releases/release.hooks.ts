import { registerHook } from '../../infra/odata/index.js';
import { checkFleetTargetRelease } from './fleet-target-release.js';
import { assignImageLocation } from './image-location.js';
import { registerOneSuccessPerCommit } from './one-success-per-commit.js';
import { setReleaseCreator } from './release-creator.js';
import { checkDeletePinned } from './release-delete-pinned.js';
import { checkFinalizeOneWay } from './release-finalize.js';
import { checkReleaseImageFleet } from './release-image-fleet.js';
import { assignRawVersions } from './release-raw-version.js';
import { checkReleaseSemver } from './release-semver.js';
import { touchRelease } from './release-update-timestamp.js';
import { checkReleaseValidation } from './release-validation.js';
import { fleetsOfReleases, refreshTrackedTargets } from './track-latest-release.js';

/** Release fields whose change can make a release the newest valid one, or stop it being so. */
const TARGET_FIELDS = ['status', 'is_final', 'is_invalidated', 'is_passing_tests'];

/**
 * Releases as `balena deploy` creates them (release → service → image → release_image,
 * then image and release marked done) and the fleet's target release.
 */
export function registerReleaseRules(): void {
  registerOneSuccessPerCommit();

  registerHook('release', 'POST', {
    before: async ({ db, actor, body }) => {
      await setReleaseCreator(db, actor, body);
      await checkReleaseSemver(db, body, []);
    },
    after: async ({ db, ids }) => {
      await assignRawVersions(db, ids);
      await refreshTrackedTargets(db, await fleetsOfReleases(db, ids));
    },
  });
  registerHook('release', 'PATCH', {
    before: async ({ db, body, ids }) => {
      await checkFinalizeOneWay(db, body, ids);
      await checkReleaseValidation(db, body, ids);
      await checkReleaseSemver(db, body, ids);
      touchRelease(body);
    },
    after: async ({ db, body, ids }) => {
      if ('semver' in body || 'is_final' in body) await assignRawVersions(db, ids);
      if (TARGET_FIELDS.some((f) => f in body)) await refreshTrackedTargets(db, await fleetsOfReleases(db, ids));
    },
  });
  registerHook('release', 'DELETE', {
    before: async ({ db, ids }) => {
      await checkDeletePinned(db, ids);
      // A fleet's target cannot be deleted, so this only repairs a stale tracked target.
      await refreshTrackedTargets(db, await fleetsOfReleases(db, ids), ids);
    },
  });

  registerHook('image', 'POST', { before: ({ body }) => assignImageLocation(body) });
  registerHook('image__is_part_of__release', 'POST', { after: ({ db, ids }) => checkReleaseImageFleet(db, ids) });

  registerHook('application', 'PATCH', {
    before: ({ db, body, ids }) => checkFleetTargetRelease(db, body, ids),
    after: async ({ db, body, ids }) => {
      if ('should_track_latest_release' in body || 'should_be_running__release' in body) await refreshTrackedTargets(db, ids);
    },
  });
}
