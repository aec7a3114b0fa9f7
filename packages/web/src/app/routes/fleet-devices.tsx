import { AddDeviceButton } from '../../features/add-device/components/add-device-button';
import { FreeAllowanceNotice } from '../../features/billing-banners';
import { FleetDeviceTable } from '../../features/devices/components/fleet-device-table';
import { useFleetRouteContext } from './fleet-context';
import '../../features/devices/i18n';

/**
 * /fleets/{id}/devices (spec 2 §2): the fleet's device table on its own page; the release
 * page links here with `?is_running__release={releaseId}`. The summary shows the same table.
 */
export function FleetDevicesRoute() {
  const { fleet, access } = useFleetRouteContext();
  return (
    <FleetDeviceTable
      fleetId={fleet.id}
      can={access.can}
      actions={<AddDeviceButton fleet={fleet} role={access.role} notice={<FreeAllowanceNotice organizationId={fleet.organization.id} />} />}
    />
  );
}
