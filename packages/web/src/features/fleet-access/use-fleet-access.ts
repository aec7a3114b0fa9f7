import { effectiveFleetRole } from '@flotilla/model';
import { useFleet } from './api/get-fleet';
import { useMyFleetRoles } from './api/get-my-fleet-roles';
import { useSession } from '../../lib/get-session';
import { useQuery } from '@tanstack/react-query';
import { sessionClaimsQueryOptions } from '../../lib/get-session-claims';
import { platformStaffRole } from '../../lib/session-claims';
import { fleetAccessFrom } from '../../lib/fleet-access';

/**
 * The caller's access to one fleet, from data-API reads (organization membership, fleet
 * membership, team access) and the session's platform role. Undefined while loading.
 */
export function useFleetAccess(fleetId: number) {
  const fleet = useFleet(fleetId);
  const roles = useMyFleetRoles(fleetId, fleet.data?.organization.id);
  const session = useSession();
  // The staff role must be known before access is decided (a staff viewer has no role).
  const claims = useQuery(sessionClaimsQueryOptions(session.data?.id));
  const access =
    roles.data && claims.isSuccess
      ? fleetAccessFrom(effectiveFleetRole(roles.data.orgRole, roles.data.membershipRole, roles.data.teamRoles), platformStaffRole(claims.data), roles.data.orgRole ?? undefined)
      : undefined;
  return {
    access,
    isError: fleet.isError || roles.isError,
    refetch: () => Promise.all([fleet.refetch(), roles.refetch()]),
  };
}
