import { useOutletContext } from 'react-router';
import type { FleetDetails } from '../../features/fleet-access/api/get-fleet';
import type { FleetAccess } from '../../lib/fleet-access';

/** What the application shell hands its sub-pages (summary, members, teams). */
export interface FleetRouteContext {
  fleet: FleetDetails;
  access: FleetAccess;
}

export function useFleetRouteContext(): FleetRouteContext {
  return useOutletContext<FleetRouteContext>();
}
