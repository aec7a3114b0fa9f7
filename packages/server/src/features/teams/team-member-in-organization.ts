import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import { isMemberOfTeamOrganization } from './team.repository.js';

/** Rule: a team's members are members of the team's organization. */
export async function checkTeamMemberInOrganization(db: Db, body: HookBody<'team_membership', 'POST'>): Promise<void> {
  if (typeof body.user !== 'number' || typeof body.is_member_of__team !== 'number') return; // required-field checks answer
  const member = await isMemberOfTeamOrganization(db, body.user, body.is_member_of__team);
  // No such team (undefined): the foreign key (409) or the permission check (401) answers.
  if (member === false) throw new BadRequestError("A team member must be a member of the team's organization");
}
