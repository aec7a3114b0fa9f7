import { FleetVariablesPage } from '../../features/variables/pages/fleet-variables-page';
import { useFleetRouteContext } from './fleet-context';

/** /fleets/{id}/envvars (spec 2 §2): fleet and service variables; the server refuses what the role may not do. */
export function FleetEnvVarsRoute() {
  const { fleet, access } = useFleetRouteContext();
  return (
    <FleetVariablesPage
      fleetId={fleet.id}
      canEdit={access.can('resin.application_environment_variable.update') && access.can('resin.service_environment_variable.update')}
      canDeleteOverrides={access.can('resin.device_environment_variable.delete') && access.can('resin.device_service_environment_variable.delete')}
    />
  );
}
