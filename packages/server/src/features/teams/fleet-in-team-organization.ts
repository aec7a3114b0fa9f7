import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/** Rule: a team gets access only to fleets of its own organization. */
export async function checkFleetInTeamOrganization(db: Db, body: HookBody<'team_application_access', 'POST'>): Promise<void> {
  if (typeof body.team !== 'number' || typeof body.grants_access_to__application !== 'number') return;
  const { rows } = await db.query<{ same: boolean }>(
    `SELECT t.belongs_to__organization = a.organization AS same
       FROM team t, application a WHERE t.id = $1 AND a.id = $2`,
    [body.team, body.grants_access_to__application],
  );
  if (rows[0] && !rows[0].same) throw new BadRequestError("A team can only be given access to fleets of the team's organization");
}
