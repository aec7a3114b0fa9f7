import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/** Rule: a team's members are members of the team's organization. */
export async function checkTeamMemberInOrganization(db: Db, body: HookBody<'team_membership', 'POST'>): Promise<void> {
  if (typeof body.user !== 'number' || typeof body.is_member_of__team !== 'number') return; // required-field checks answer
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM organization_membership m
                     WHERE m."user" = $1 AND m.is_member_of__organization = t.belongs_to__organization) AS ok
       FROM team t WHERE t.id = $2`,
    [body.user, body.is_member_of__team],
  );
  // No such team: the foreign key (409) or the permission check (401) answers.
  if (rows[0] && !rows[0].ok) throw new BadRequestError("A team member must be a member of the team's organization");
}
