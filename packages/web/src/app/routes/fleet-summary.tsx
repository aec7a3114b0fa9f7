import { FleetDetailsCard } from '../../features/fleet-access/components/fleet-details-card';
import { useFleetRouteContext } from './fleet-context';

/** /fleets/{id} (summary, the default sub-page): the details card for now (spec 2 §2). */
export function FleetSummaryRoute() {
  const { fleet } = useFleetRouteContext();
  return <FleetDetailsCard fleet={fleet} />;
}
