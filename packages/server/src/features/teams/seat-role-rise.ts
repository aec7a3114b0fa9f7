import { highestFleetRole, SEAT_ROLES, type SeatRole } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { memberSeats, setSeatRole } from './team.repository.js';

const asSeatRole = (v: string | null): SeatRole | undefined => (SEAT_ROLES as readonly (string | null)[]).includes(v) ? (v as SeatRole) : undefined;

/**
 * Rule (spec 1 §4, spec 3 §6): a team member's organization membership seat role rises to
 * the highest of their current seat role and the roles of the team's fleet access. It runs
 * when a member joins a team (`teamMembershipIds`) and when a team's access is granted or
 * changed (`teamIds`: every member of those teams). Seat roles only rise here; lowering
 * one is a billing decision an administrator makes.
 */
export async function raiseSeatRoles(db: Db, of: { teamMembershipIds: readonly number[] } | { teamIds: readonly number[] }): Promise<void> {
  const rows = await memberSeats(db, of);
  // One organization membership may come through several teams: the highest wins.
  const next = new Map<number, { current: SeatRole | undefined; next: SeatRole | undefined }>();
  for (const row of rows) {
    const current = asSeatRole(row.seat);
    const prev = next.get(row.id)?.next ?? current;
    next.set(row.id, { current, next: highestFleetRole([prev, ...row.roles.map(asSeatRole)]) });
  }
  for (const [id, { current, next: role }] of next) {
    if (role !== undefined && role !== current) {
      await setSeatRole(db, id, role);
    }
  }
}
