import { ConfigPage } from '../../features/variables/config/components/config-page';
import { useDeviceRouteContext } from './device-context';

/** /devices/{uuid}/config (spec 2 §2): the device's configuration overrides beside the fleet's values; operators and up change them. */
export function DeviceConfigRoute() {
  const { device, access } = useDeviceRouteContext();
  return (
    <ConfigPage
      key={device.uuid}
      level="device"
      fleetId={device.fleet.id}
      deviceType={device.deviceType.slug}
      device={{ id: device.id, uuid: device.uuid }}
      canEdit={access.can('resin.device_config_variable.all')}
    />
  );
}
