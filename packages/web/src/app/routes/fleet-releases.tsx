import { FleetReleasesPage } from '../../features/releases/pages/fleet-releases-page';
import { useFleetRouteContext } from './fleet-context';

/** /{class}s/{id}/releases (spec 2 §2, §5, §7). */
export function FleetReleasesRoute() {
  const { fleet, access } = useFleetRouteContext();
  return <FleetReleasesPage fleetId={fleet.id} canRead={access.canRead} />;
}
