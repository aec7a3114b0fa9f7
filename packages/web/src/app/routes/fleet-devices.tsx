import { lazy, Suspense } from 'react';
import { AddDeviceButton } from '../../features/add-device/components/add-device-button';
import { FleetDeviceTable } from '../../features/devices/components/fleet-device-table';
import { useFleetRouteContext } from './fleet-context';
import '../../features/devices/i18n';

// The add-device dialog's free allowance notice (issue 18): a lazy chunk, only with billing on.
const FreeAllowanceNotice = lazy(async () => ({ default: (await import('../../features/billing-banners')).FreeAllowanceNotice }));

/**
 * /fleets/{id}/devices (spec 2 §2): the fleet's device table on its own page; the release
 * page links here with `?is_running__release={releaseId}`. The summary shows the same table.
 */
export function FleetDevicesRoute() {
  const { fleet, access } = useFleetRouteContext();
  const notice = (
    <Suspense fallback={null}>
      <FreeAllowanceNotice organizationId={fleet.organization.id} />
    </Suspense>
  );
  return <FleetDeviceTable fleetId={fleet.id} can={access.can} actions={<AddDeviceButton fleet={fleet} role={access.role} notice={notice} />} />;
}
