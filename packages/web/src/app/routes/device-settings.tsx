import { DeviceSettingsPage } from '../../features/devices/components/device-settings/device-settings-page';
import { useDeviceRouteContext } from './device-context';

/** /devices/{uuid}/settings (spec 2 §2 device Settings page): readers see it, controls follow their rights. */
export function DeviceSettingsRoute() {
  const { device, access } = useDeviceRouteContext();
  return <DeviceSettingsPage device={device} access={access} />;
}
