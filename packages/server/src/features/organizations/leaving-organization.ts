import type { Db } from '../../infra/db/db.js';

/**
 * Rule: a user who leaves (or is removed from) an organization leaves its teams and the
 * fleets of it shared with them, so that fleet access never outlives organization
 * membership.
 */
export async function leaveTeamsAndFleetsOfOrganization(db: Db, membershipIds: readonly number[]): Promise<void> {
  if (membershipIds.length === 0) return;
  await db.query(
    `DELETE FROM team_membership tm USING team t, organization_membership m
      WHERE t.id = tm.is_member_of__team AND m.id = ANY($1)
        AND tm."user" = m."user" AND t.belongs_to__organization = m.is_member_of__organization`,
    [membershipIds],
  );
  await db.query(
    `DELETE FROM user_application_membership fm USING application a, organization_membership m
      WHERE a.id = fm.is_member_of__application AND m.id = ANY($1)
        AND fm."user" = m."user" AND a.organization = m.is_member_of__organization`,
    [membershipIds],
  );
}
