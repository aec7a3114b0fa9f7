import { highestFleetRole, SEAT_ROLES, type SeatRole } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

const asSeatRole = (v: string | null): SeatRole | undefined => (SEAT_ROLES as readonly (string | null)[]).includes(v) ? (v as SeatRole) : undefined;

/**
 * Rule (spec 1 §4, spec 3 §6): a team member's organization membership seat role rises to
 * the highest of their current seat role and the roles of the team's fleet access. It runs
 * when a member joins a team (`teamMembershipIds`) and when a team's access is granted or
 * changed (`teamIds`: every member of those teams). Seat roles only rise here; lowering
 * one is a billing decision an administrator makes.
 */
export async function raiseSeatRoles(db: Db, of: { teamMembershipIds: readonly number[] } | { teamIds: readonly number[] }): Promise<void> {
  const byMembership = 'teamMembershipIds' in of;
  const { rows } = await db.query<{ id: number; seat: string | null; roles: string[] }>(
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
  // One organization membership may come through several teams: the highest wins.
  const next = new Map<number, { current: SeatRole | undefined; next: SeatRole | undefined }>();
  for (const row of rows) {
    const current = asSeatRole(row.seat);
    const prev = next.get(row.id)?.next ?? current;
    next.set(row.id, { current, next: highestFleetRole([prev, ...row.roles.map(asSeatRole)]) });
  }
  for (const [id, { current, next: role }] of next) {
    if (role !== undefined && role !== current) {
      await db.query('UPDATE organization_membership SET effective_seat_role = $2 WHERE id = $1', [id, role]);
    }
  }
}

/** The teams of some team_application_access rows. */
export async function teamsOfAccess(db: Db, accessIds: readonly number[]): Promise<number[]> {
  if (accessIds.length === 0) return [];
  const { rows } = await db.query<{ team: number }>('SELECT DISTINCT team FROM team_application_access WHERE id = ANY($1::int[])', [accessIds]);
  return rows.map((r) => r.team);
}
