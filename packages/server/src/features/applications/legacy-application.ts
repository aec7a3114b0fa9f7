import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/*
 * "Classic and legacy applications" (spec 2 §5 Fleets) are, in this model, the fleets whose
 * application type is marked `is_legacy`: the model has no legacy flag on device types (a
 * discontinued device type is a different notion, spec 2 §2), and the classic application
 * types of the reference platform are legacy application types.
 */

/** Rule: classic and legacy applications cannot be renamed. */
export async function checkLegacyRename(db: Db, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || typeof body.app_name !== 'string') return;
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a JOIN application_type t ON t.id = COALESCE($3::int, a.application_type)
      WHERE a.id = ANY($1::int[]) AND t.is_legacy AND a.app_name <> $2 LIMIT 1`,
    [ids, body.app_name, typeof body.application_type === 'number' ? body.application_type : null],
  );
  if (rowCount) throw new BadRequestError('cannot rename classic and legacy applications');
}

/**
 * Rule: a legacy-type application is made public only with a repository URL (spec 2 §5:
 * 'must first enter repo url'). Judged on the row as the write leaves it, so clearing the
 * URL of a public legacy application is refused too.
 */
export async function checkLegacyPublic(db: Db, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (body.is_public !== true && !('is_stored_at__repository_url' in body) && !('application_type' in body)) return;
  const repoGiven = 'is_stored_at__repository_url' in body;
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a JOIN application_type t ON t.id = COALESCE($2::int, a.application_type)
      WHERE a.id = ANY($1::int[]) AND t.is_legacy
        AND COALESCE($3::boolean, a.is_public)
        AND COALESCE(trim(CASE WHEN $4 THEN $5::text ELSE a.is_stored_at__repository_url END), '') = ''
      LIMIT 1`,
    [
      ids,
      typeof body.application_type === 'number' ? body.application_type : null,
      typeof body.is_public === 'boolean' ? body.is_public : null,
      repoGiven,
      repoGiven ? ((body.is_stored_at__repository_url as string | null) ?? null) : null,
    ],
  );
  if (rowCount) throw new BadRequestError('must first enter repo url');
}
