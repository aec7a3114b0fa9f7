import { DeviceVariablesPage } from '../../features/variables/pages/device-variables-page';
import { useDeviceRouteContext } from './device-context';

/** /devices/{uuid}/envvars (spec 2 §2): the device's variables and overrides of its fleet's. */
export function DeviceEnvVarsRoute() {
  const { device, access } = useDeviceRouteContext();
  return (
    <DeviceVariablesPage
      device={{ id: device.id, uuid: device.uuid, fleetId: device.fleet.id }}
      canEdit={access.can('resin.device_environment_variable.update') && access.can('resin.device_service_environment_variable.update')}
    />
  );
}
