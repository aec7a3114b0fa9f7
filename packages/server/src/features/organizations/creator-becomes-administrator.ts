import type { Db } from '../../infra/db/db.js';

/** Rule: the user who creates an organization becomes its administrator. */
export async function addCreatorAsAdministrator(db: Db, organizationId: number, actorId: number | null): Promise<void> {
  if (actorId === null) return;
  await db.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT u.id, $2, r.id FROM "user" u, organization_membership_role r
      WHERE u.actor = $1 AND r.name = 'administrator'
     ON CONFLICT DO NOTHING`,
    [actorId, organizationId],
  );
}
