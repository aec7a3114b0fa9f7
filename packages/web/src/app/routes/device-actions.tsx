import { DeviceActionsPage } from '../../features/device-actions/components/device-actions-page';
import { useDeviceRouteContext } from './device-context';

/** /devices/{uuid}/actions (spec 2 §2): the actions menu's actions as a page; each control follows the caller's rights. */
export function DeviceActionsRoute() {
  const { device, access } = useDeviceRouteContext();
  return <DeviceActionsPage device={device} can={access.can} />;
}
