import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import { fleetInTeamOrganization } from './team.repository.js';

/** Rule: a team gets access only to fleets of its own organization. */
export async function checkFleetInTeamOrganization(db: Db, body: HookBody<'team_application_access', 'POST'>): Promise<void> {
  if (typeof body.team !== 'number' || typeof body.grants_access_to__application !== 'number') return;
  const sameOrganization = await fleetInTeamOrganization(db, body.team, body.grants_access_to__application);
  if (sameOrganization === false) throw new BadRequestError("A team can only be given access to fleets of the team's organization");
}
