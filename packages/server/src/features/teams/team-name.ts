import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (spec 1 §5): a team needs a name, unique case-insensitively within its organization
 * (also enforced by the unique index on (belongs_to__organization, lower(name))). A clash is
 * 409 'Unique key constraint violated'.
 */
export async function checkTeamName(db: Db, body: HookBody<'team', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('name' in body)) return;
  if (typeof body.name !== 'string' || body.name.trim() === '') throw new BadRequestError('Team name is required');
  body.name = body.name.trim();
  // POST names its organization; PATCH keeps the organizations of the teams it renames.
  const clash =
    ids.length === 0
      ? await db.query('SELECT 1 FROM team WHERE belongs_to__organization = $1 AND lower(name) = lower($2)', [body.belongs_to__organization, body.name])
      : await db.query(
          `SELECT 1 FROM team t JOIN team r ON r.belongs_to__organization = t.belongs_to__organization
            WHERE r.id = ANY($1) AND NOT (t.id = ANY($1)) AND lower(t.name) = lower($2)`,
          [ids, body.name],
        );
  if (clash.rowCount > 0 || (ids.length > 1 && (await sameOrganization(db, ids)))) throw new ConflictError('Unique key constraint violated');
}

/** Renaming several teams of one organization to one name would clash among themselves. */
async function sameOrganization(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int - count(DISTINCT belongs_to__organization)::int AS n FROM team WHERE id = ANY($1)',
    [ids],
  );
  return (rows[0]?.n ?? 0) > 0;
}
