import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import { teamNameTaken, teamNameTakenBesides, teamsShareAnOrganization } from './team.repository.js';

/**
 * Rule (spec 1 §5): a team needs a name, unique case-insensitively within its organization
 * (also enforced by the unique index on (belongs_to__organization, lower(name))). A clash is
 * 409 'Unique key constraint violated'.
 */
export async function checkTeamName(db: Db, body: HookBody<'team', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (!('name' in body)) return;
  if (typeof body.name !== 'string' || body.name.trim() === '') throw new BadRequestError('Team name is required');
  const name = body.name.trim();
  body.name = name;
  // POST names its organization; PATCH keeps the organizations of the teams it renames.
  const clash = ids.length === 0 ? await teamNameTaken(db, body.belongs_to__organization, name) : await teamNameTakenBesides(db, ids, name);
  // Renaming several teams of one organization to one name would clash among themselves.
  if (clash || (ids.length > 1 && (await teamsShareAnOrganization(db, ids)))) throw new ConflictError('Unique key constraint violated');
}
