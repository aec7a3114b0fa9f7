import { parseReleaseSemver, SEMVER_THREE_PART_MESSAGE } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a release's semver is three-part `MAJOR.MINOR.PATCH`; the server keeps
 * semver_major/minor/patch in step. A final release whose semver changes loses its
 * revision, so release-raw-version.ts numbers it again within the new version.
 */
export async function checkReleaseSemver(db: Db, body: HookBody<'release', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('semver' in body)) return;
  const parts = typeof body.semver === 'string' ? parseReleaseSemver(body.semver) : undefined;
  if (!parts) throw new BadRequestError(SEMVER_THREE_PART_MESSAGE);
  body.semver_major = parts.major;
  body.semver_minor = parts.minor;
  body.semver_patch = parts.patch;
  if (ids.length > 0) {
    await db.query('UPDATE release SET revision = NULL WHERE id = ANY($1::int[]) AND semver <> $2', [ids, body.semver]);
  }
}
