import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The teams feature's SQL: teams, their members and their fleet access.

/** Whether a team of the organization (its id as POSTed) has this name (case-insensitively). */
export async function teamNameTaken(db: Db, organizationId: unknown, name: Row<'team'>['name']): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM team WHERE belongs_to__organization = $1 AND lower(name) = lower($2)', [organizationId, name]);
  return rowCount > 0;
}

/** Whether a team other than `ids`, in the organization of one of them, has this name (case-insensitively). */
export async function teamNameTakenBesides(db: Db, ids: readonly number[], name: Row<'team'>['name']): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM team t JOIN team r ON r.belongs_to__organization = t.belongs_to__organization
      WHERE r.id = ANY($1) AND NOT (t.id = ANY($1)) AND lower(t.name) = lower($2)`,
    [ids, name],
  );
  return rowCount > 0;
}

/** Whether two of these teams belong to one organization. */
export async function teamsShareAnOrganization(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int - count(DISTINCT belongs_to__organization)::int AS n FROM team WHERE id = ANY($1)',
    [ids],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** Whether the user is a member of the team's organization; undefined when there is no such team. */
export async function isMemberOfTeamOrganization(db: Db, userId: Row<'user'>['id'], teamId: Row<'team'>['id']): Promise<boolean | undefined> {
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM organization_membership m
                     WHERE m."user" = $1 AND m.is_member_of__organization = t.belongs_to__organization) AS ok
       FROM team t WHERE t.id = $2`,
    [userId, teamId],
  );
  return rows[0]?.ok;
}

/** Whether the fleet belongs to the team's organization; undefined when either does not exist. */
export async function fleetInTeamOrganization(db: Db, teamId: Row<'team'>['id'], applicationId: Row<'application'>['id']): Promise<boolean | undefined> {
  const { rows } = await db.query<{ same: boolean }>(
    `SELECT t.belongs_to__organization = a.organization AS same
       FROM team t, application a WHERE t.id = $1 AND a.id = $2`,
    [teamId, applicationId],
  );
  return rows[0]?.same;
}

/** A team member's organization membership, its seat role, and the roles one team gives them. */
export interface MemberSeat {
  /** The organization membership. */
  id: Row<'organization_membership'>['id'];
  seat: Row<'organization_membership'>['effective_seat_role'];
  /** The application membership roles of the team's fleet access. */
  roles: Row<'application_membership_role'>['name'][];
}

/**
 * The organization memberships of the members of some teams (or of some team memberships),
 * one row per team membership, in membership id order, locked (FOR UPDATE) for the caller's
 * transaction.
 */
export async function memberSeats(db: Db, of: { teamMembershipIds: readonly number[] } | { teamIds: readonly number[] }): Promise<MemberSeat[]> {
  const byMembership = 'teamMembershipIds' in of;
  const { rows } = await db.query<MemberSeat>(
    `SELECT m.id, m.effective_seat_role AS seat,
            ARRAY(SELECT r.name FROM team_application_access ta
                    JOIN application_membership_role r ON r.id = ta.application_membership_role
                   WHERE ta.team = t.id) AS roles
       FROM team_membership tm
       JOIN team t ON t.id = tm.is_member_of__team
       JOIN organization_membership m ON m."user" = tm."user" AND m.is_member_of__organization = t.belongs_to__organization
      WHERE ${byMembership ? 'tm.id' : 't.id'} = ANY($1::int[])
      ORDER BY m.id
      FOR UPDATE OF m`,
    [byMembership ? of.teamMembershipIds : of.teamIds],
    { name: byMembership ? 'seat-role-rise-by-membership' : 'seat-role-rise-by-team' },
  );
  return rows;
}

/** Sets an organization membership's seat role. */
export async function setSeatRole(
  db: Db,
  membershipId: Row<'organization_membership'>['id'],
  role: NonNullable<Row<'organization_membership'>['effective_seat_role']>,
): Promise<void> {
  await db.query('UPDATE organization_membership SET effective_seat_role = $2 WHERE id = $1', [membershipId, role]);
}

/** The teams of some team_application_access rows. */
export async function teamsOfAccess(db: Db, accessIds: readonly number[]): Promise<Row<'team_application_access'>['team'][]> {
  if (accessIds.length === 0) return [];
  const { rows } = await db.query<Pick<Row<'team_application_access'>, 'team'>>('SELECT DISTINCT team FROM team_application_access WHERE id = ANY($1::int[])', [accessIds]);
  return rows.map((r) => r.team);
}
