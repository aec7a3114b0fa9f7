import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The organizations feature's SQL: organizations, their memberships and what hangs on those.

/** Whether an organization has this name (case-insensitively) or this handle. */
export async function organizationNameOrHandleTaken(db: Db, name: Row<'organization'>['name'], handle: Row<'organization'>['handle']): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM organization WHERE lower(name) = lower($1) OR handle = $2', [name, handle]);
  return rowCount > 0;
}

/** Makes the user of actor `actorId` an administrator of the organization (unless a member already). */
export async function addAdministratorByActor(db: Db, organizationId: Row<'organization'>['id'], actorId: Row<'actor'>['id']): Promise<void> {
  await db.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT u.id, $2, r.id FROM "user" u, organization_membership_role r
      WHERE u.actor = $1 AND r.name = 'administrator'
     ON CONFLICT DO NOTHING`,
    [actorId, organizationId],
  );
}

/** The name of an organization membership role, by id. */
export async function membershipRoleName(db: Db, roleId: unknown): Promise<Row<'organization_membership_role'>['name'] | undefined> {
  const { rows } = await db.query<Pick<Row<'organization_membership_role'>, 'name'>>('SELECT name FROM organization_membership_role WHERE id = $1', [roleId]);
  return rows[0]?.name;
}

/** Locks (FOR UPDATE, in id order) the organizations of these memberships, for the rest of the transaction. */
export async function lockOrganizationsOfMemberships(db: Db, membershipIds: readonly number[]): Promise<void> {
  await db.query(
    `SELECT o.id FROM organization o
      WHERE o.id IN (SELECT is_member_of__organization FROM organization_membership WHERE id = ANY($1))
      ORDER BY o.id FOR UPDATE`,
    [membershipIds],
  );
}

/** Whether some of these memberships are the only administrator memberships their organization has. */
export async function includesLastAdministrator(db: Db, membershipIds: readonly number[]): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH admin AS (
       SELECT m.id, m.is_member_of__organization AS org FROM organization_membership m
         JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator')
     SELECT 1 FROM admin a
      WHERE a.id = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM admin b WHERE b.org = a.org AND NOT (b.id = ANY($1)))`,
    [membershipIds],
  );
  return rowCount > 0;
}

/** Removes the members of these organization memberships from the teams of that organization. */
export async function deleteTeamMembershipsOfMemberships(db: Db, membershipIds: readonly number[]): Promise<void> {
  await db.query(
    `DELETE FROM team_membership tm USING team t, organization_membership m
      WHERE t.id = tm.is_member_of__team AND m.id = ANY($1)
        AND tm."user" = m."user" AND t.belongs_to__organization = m.is_member_of__organization`,
    [membershipIds],
  );
}

/** Removes the members of these organization memberships from the fleets of that organization. */
export async function deleteFleetMembershipsOfMemberships(db: Db, membershipIds: readonly number[]): Promise<void> {
  await db.query(
    `DELETE FROM user_application_membership fm USING application a, organization_membership m
      WHERE a.id = fm.is_member_of__application AND m.id = ANY($1)
        AND fm."user" = m."user" AND a.organization = m.is_member_of__organization`,
    [membershipIds],
  );
}
