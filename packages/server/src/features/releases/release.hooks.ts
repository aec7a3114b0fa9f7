import type { Rules } from '../../infra/app/context.js';
import { checkFleetTargetRelease } from './fleet-target-release.js';
import { assignImageLocation } from './image-location.js';
import { registryHostOf } from '../registry/index.js';
import { registerOneSuccessPerCommit } from './one-success-per-commit.js';
import { setReleaseCreator } from './release-creator.js';
import { checkDeletePinned } from './release-delete-pinned.js';
import { checkFinalizeOneWay } from './release-finalize.js';
import { checkReleaseImageFleet } from './release-image-fleet.js';
import { assignRawVersions } from './release-raw-version.js';
import { checkReleaseSemver } from './release-semver.js';
import { touchRelease } from './release-update-timestamp.js';
import { checkReleaseValidation } from './release-validation.js';
import { checkReleaseComposition } from './release-composition.js';
import { fleetsOfReleases, refreshTrackedTargets } from './track-latest-release.js';

/** Release fields whose change can make a release the newest valid one, or stop it being so. */
const TARGET_FIELDS = ['status', 'is_final', 'is_invalidated', 'is_passing_tests'];

/**
 * Releases as `balena deploy` creates them (release → service → image → release_image,
 * then image and release marked done) and the fleet's target release.
 */
export function registerReleaseRules(rules: Rules): void {
  registerOneSuccessPerCommit(rules);

  rules.register('release', 'POST', {
    before: async ({ tx, actor, body }) => {
      checkReleaseComposition(body);
      await setReleaseCreator(tx, actor, body);
      await checkReleaseSemver(tx, body, []);
    },
    after: async ({ tx, ids }) => {
      await assignRawVersions(tx, ids);
      await refreshTrackedTargets(tx, await fleetsOfReleases(tx, ids));
    },
  });
  rules.register('release', 'PATCH', {
    before: async ({ tx, app, body, ids }) => {
      checkReleaseComposition(body);
      await checkFinalizeOneWay(tx, body, ids);
      await checkReleaseValidation(tx, body, ids);
      await checkReleaseSemver(tx, body, ids);
      touchRelease(body, app.clock());
    },
    after: async ({ tx, body, ids }) => {
      if ('semver' in body || 'is_final' in body) await assignRawVersions(tx, ids);
      if (TARGET_FIELDS.some((f) => f in body)) await refreshTrackedTargets(tx, await fleetsOfReleases(tx, ids));
    },
  });
  rules.register('release', 'DELETE', {
    before: async ({ tx, ids }) => {
      await checkDeletePinned(tx, ids);
      // A fleet's target cannot be deleted, so this only repairs a stale tracked target.
      await refreshTrackedTargets(tx, await fleetsOfReleases(tx, ids), ids);
    },
  });

  rules.register('image', 'POST', { before: ({ app, body }) => assignImageLocation(body, registryHostOf(app)) });
  rules.register('image__is_part_of__release', 'POST', { after: ({ tx, ids }) => checkReleaseImageFleet(tx, ids) });

  rules.register('application', 'PATCH', {
    before: ({ tx, body, ids }) => checkFleetTargetRelease(tx, body, ids),
    after: async ({ tx, body, ids }) => {
      if ('should_track_latest_release' in body || 'should_be_running__release' in body) await refreshTrackedTargets(tx, ids);
    },
  });
}
