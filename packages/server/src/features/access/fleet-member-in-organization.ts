import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a fleet's members are members of the fleet's organization (balena's rule; its SDK
 * checks the same before `application.membership.create`).
 */
export async function checkFleetMemberInOrganization(db: Db, body: HookBody<'user_application_membership', 'POST'>): Promise<void> {
  if (typeof body.user !== 'number' || typeof body.is_member_of__application !== 'number') return; // required-field checks answer
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM organization_membership m
                     WHERE m."user" = $1 AND m.is_member_of__organization = a.organization) AS ok
       FROM application a WHERE a.id = $2`,
    [body.user, body.is_member_of__application],
  );
  // No such fleet: the foreign key (409) or the permission check (401) answers.
  if (rows[0] && !rows[0].ok) throw new BadRequestError("A fleet member must be a member of the fleet's organization");
}
