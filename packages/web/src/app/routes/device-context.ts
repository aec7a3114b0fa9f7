import { useOutletContext } from 'react-router';
import type { FleetAccess } from '../../lib/fleet-access';
import type { DeviceDetails } from '../../features/devices/api/get-device';

/** What the device shell hands its sub-pages. */
export interface DeviceRouteContext {
  device: DeviceDetails;
  /** The caller's access to the device's fleet (spec 2 §6: device rights follow the fleet role). */
  access: FleetAccess;
}

export function useDeviceRouteContext(): DeviceRouteContext {
  return useOutletContext<DeviceRouteContext>();
}
