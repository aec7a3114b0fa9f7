import { DeviceSettingsPage } from '../../features/devices/components/device-settings/device-settings-page';
import { useFleetAccess } from '../../features/fleet-access/use-fleet-access';
import { FleetAccessReaderProvider } from '../../lib/fleet-access-context';
import { useDeviceRouteContext } from './device-context';

/** /devices/{uuid}/settings (spec 2 §2 device Settings page): readers see it, controls follow their rights. */
export function DeviceSettingsRoute() {
  const { device, access } = useDeviceRouteContext();
  // Moving the device asks for the caller's access to each fleet it may go to.
  return (
    <FleetAccessReaderProvider value={useFleetAccess}>
      <DeviceSettingsPage device={device} access={access} />
    </FleetAccessReaderProvider>
  );
}
