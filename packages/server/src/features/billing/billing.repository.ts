import type { Db } from '../../infra/db/db.js';

/**
 * The user's organization role in `orgId` ('administrator' | 'member'), undefined when they
 * are not a member or it does not exist. `userId` null: only whether the organization exists
 * ('member' when it does).
 */
export async function selectOrganizationRoleOf(db: Db, orgId: number, userId: number | null): Promise<string | undefined> {
  if (userId === null) {
    const { rows } = await db.query<{ id: number }>('SELECT id FROM organization WHERE id = $1', [orgId]);
    return rows.length > 0 ? 'member' : undefined;
  }
  const { rows } = await db.query<{ name: string }>(
    `SELECT r.name FROM organization_membership m JOIN organization_membership_role r ON r.id = m.organization_membership_role
      WHERE m.is_member_of__organization = $1 AND m."user" = $2`,
    [orgId, userId],
  );
  return rows[0]?.name;
}
