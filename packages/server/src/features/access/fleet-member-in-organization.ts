import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import { isMemberOfFleetOrganization } from './access.repository.js';

/**
 * Rule: a fleet's members are members of the fleet's organization (balena's rule; its SDK
 * checks the same before `application.membership.create`).
 */
export async function checkFleetMemberInOrganization(db: Db, body: HookBody<'user_application_membership', 'POST'>): Promise<void> {
  if (typeof body.user !== 'number' || typeof body.is_member_of__application !== 'number') return; // required-field checks answer
  const member = await isMemberOfFleetOrganization(db, body.user, body.is_member_of__application);
  // No such fleet (undefined): the foreign key (409) or the permission check (401) answers.
  if (member === false) throw new BadRequestError("A fleet member must be a member of the fleet's organization");
}
