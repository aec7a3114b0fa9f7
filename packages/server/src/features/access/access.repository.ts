import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The access feature's SQL: users' memberships of fleets.

/** Whether the user is a member of the fleet's organization; undefined when there is no such fleet. */
export async function isMemberOfFleetOrganization(db: Db, userId: Row<'user'>['id'], applicationId: Row<'application'>['id']): Promise<boolean | undefined> {
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM organization_membership m
                     WHERE m."user" = $1 AND m.is_member_of__organization = a.organization) AS ok
       FROM application a WHERE a.id = $2`,
    [userId, applicationId],
  );
  return rows[0]?.ok;
}
