import { DeviceLocationPage } from '../../features/devices/components/device-location/device-location-page';
import { useDeviceRouteContext } from './device-context';

/** /devices/{uuid}/location (spec 2 §2 device Location page): readers see it, saving needs resin.device.update. */
export function DeviceLocationRoute() {
  const { device, access } = useDeviceRouteContext();
  return <DeviceLocationPage device={device} access={access} />;
}
