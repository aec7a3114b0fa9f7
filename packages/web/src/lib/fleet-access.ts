import { fleetRoleCan, fleetRoleLevel, permissionImplies, STAFF_FLEET_PERMISSIONS, type FleetRole, type OrganizationRole } from '@flotilla/model';
import type { PlatformStaffRole } from './session-claims';

export interface FleetAccess {
  /** The caller's own effective role on the fleet (spec 2 §6); undefined: no relation. */
  role: FleetRole | undefined;
  staff: PlatformStaffRole | null;
  /** Reads the fleet's pages: observer and up, or provider staff. */
  canRead: boolean;
  /** Whether the caller's role reaches `level` (e.g. 'developer' reads team access). */
  atLeast: (level: FleetRole) => boolean;
  /** Whether a control for `permission` is enabled (e.g. 'resin.user_application_membership.create'). */
  can: (permission: string) => boolean;
  /**
   * Granting teams access to the fleet: the server wants an administrator of the team's
   * organization (who is then a fleet administrator too), not only a fleet administrator.
   */
  canManageTeamAccess: boolean;
}

/**
 * Decides access from the parts. Provider staff read every fleet; on top of their own role
 * (if any) they hold only the staff rights of spec 2 §6 (`STAFF_FLEET_PERMISSIONS`: support
 * agents diagnose and open a shell, platform administrators also manage organizations and
 * their memberships) — the same rights the server gives them.
 */
export function fleetAccessFrom(role: FleetRole | undefined, staff: PlatformStaffRole | null, orgRole?: OrganizationRole): FleetAccess {
  const atLeast = (level: FleetRole) => staff !== null || (role !== undefined && fleetRoleLevel(role) >= fleetRoleLevel(level));
  const staffRights: readonly string[] =
    staff === 'administrator' ? STAFF_FLEET_PERMISSIONS.balena_admin : staff === 'support_agent' ? STAFF_FLEET_PERMISSIONS.support_agent : [];
  const can = (permission: string) => fleetRoleCan(role, permission) || staffRights.some((held) => permissionImplies(held, permission));
  return {
    role,
    staff,
    canRead: atLeast('observer'),
    atLeast,
    can,
    canManageTeamAccess: orgRole === 'administrator' && can('resin.team_application_access.create'),
  };
}
