import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';

/**
 * Rule: an image joins a release (image__is_part_of__release, alias release_image) only if
 * it is a build of a service of the release's fleet. Checked after the create permission
 * check, so a caller learns nothing about rows they may not write.
 */
export async function checkReleaseImageFleet(db: Db, ids: readonly number[]): Promise<void> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM image__is_part_of__release ir
       JOIN image i ON i.id = ir.image
       JOIN service s ON s.id = i.is_a_build_of__service
       JOIN release r ON r.id = ir.is_part_of__release
      WHERE ir.id = ANY($1::int[]) AND s.application <> r.belongs_to__application`,
    [ids],
  );
  if (rowCount > 0) throw new BadRequestError("The image must be a build of a service of the release's fleet");
}
