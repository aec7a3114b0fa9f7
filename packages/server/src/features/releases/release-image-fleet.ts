import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { linksImageOfOtherFleet } from './release.repository.js';

/**
 * Rule: an image joins a release (image__is_part_of__release, alias release_image) only if
 * it is a build of a service of the release's fleet. Checked after the create permission
 * check, so a caller learns nothing about rows they may not write.
 */
export async function checkReleaseImageFleet(db: Db, ids: readonly number[]): Promise<void> {
  if (await linksImageOfOtherFleet(db, ids)) throw new BadRequestError("The image must be a build of a service of the release's fleet");
}
