import { highestFleetRole, SEAT_ROLES, type SeatRole } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

const asSeatRole = (v: string | null): SeatRole | undefined => (SEAT_ROLES as readonly (string | null)[]).includes(v) ? (v as SeatRole) : undefined;

/**
 * Rule (spec 1 §4): when a member joins a team, their organization membership's seat role
 * rises to the highest of the current seat role and the roles of the team's fleet access.
 */
export async function raiseSeatRole(db: Db, teamMembershipId: number): Promise<void> {
  const { rows } = await db.query<{ id: number; seat: string | null; roles: string[] }>(
    `SELECT m.id, m.effective_seat_role AS seat,
            ARRAY(SELECT r.name FROM team_application_access ta
                    JOIN application_membership_role r ON r.id = ta.application_membership_role
                   WHERE ta.team = t.id) AS roles
       FROM team_membership tm
       JOIN team t ON t.id = tm.is_member_of__team
       JOIN organization_membership m ON m."user" = tm."user" AND m.is_member_of__organization = t.belongs_to__organization
      WHERE tm.id = $1
      FOR UPDATE OF m`,
    [teamMembershipId],
  );
  const row = rows[0];
  if (!row) return;
  const current = asSeatRole(row.seat);
  const next = highestFleetRole([current, ...row.roles.map(asSeatRole)]);
  if (next !== undefined && next !== current) {
    await db.query('UPDATE organization_membership SET effective_seat_role = $2 WHERE id = $1', [row.id, next]);
  }
}
