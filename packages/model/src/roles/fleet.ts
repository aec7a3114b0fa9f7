import { APPLICATION_MEMBERSHIP_ROLES, type ApplicationMembershipRole } from '../access/access.resource.js';
import type { OrganizationRole } from '../organization/organization.resource.js';

/**
 * Fleet roles accumulate: each level may do everything the levels below it may
 * (spec 1 §6, spec 2 §6). `member` is what a plain organization member holds on a fleet
 * nobody shared with them: it grants nothing on the fleet itself.
 */
export const FLEET_ROLE_LEVELS = ['member', ...APPLICATION_MEMBERSHIP_ROLES] as const;
export type FleetRole = (typeof FLEET_ROLE_LEVELS)[number];

/** Seat roles (billing seats, spec 1 §4/§9), lowest first; same ladder as fleet roles. */
export const SEAT_ROLES = FLEET_ROLE_LEVELS;
export type SeatRole = FleetRole;

export const fleetRoleLevel = (role: FleetRole): number => FLEET_ROLE_LEVELS.indexOf(role);

/** The fleet roles at `level` or above, e.g. developer → [developer, administrator]. */
export function fleetRolesFrom(level: FleetRole): FleetRole[] {
  return FLEET_ROLE_LEVELS.filter((r) => fleetRoleLevel(r) >= fleetRoleLevel(level));
}

/** The highest of some fleet (or seat) roles; undefined for none. */
export function highestFleetRole(roles: readonly (FleetRole | null | undefined)[]): FleetRole | undefined {
  let best: FleetRole | undefined;
  for (const r of roles) if (r && (best === undefined || fleetRoleLevel(r) > fleetRoleLevel(best))) best = r;
  return best;
}

/**
 * A user's effective role on a fleet: the highest of what their organization role implies
 * (administrator ⇒ fleet administrator, member ⇒ member), their direct fleet membership and
 * the access of each of their teams. Undefined: no relation to the fleet at all.
 */
export function effectiveFleetRole(
  orgRole: OrganizationRole | null | undefined,
  membershipRole: ApplicationMembershipRole | null | undefined,
  teamRoles: readonly ApplicationMembershipRole[] = [],
): FleetRole | undefined {
  const fromOrg: FleetRole | undefined = orgRole === 'administrator' ? 'administrator' : orgRole === 'member' ? 'member' : undefined;
  return highestFleetRole([fromOrg, membershipRole, ...teamRoles]);
}
