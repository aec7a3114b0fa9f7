import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { PageHeader } from '../../components/page-header';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useDevice, type DeviceDetails } from '../../features/devices/api/get-device';
import { DeviceActionsMenu } from '../../features/devices/components/device-actions-menu';
import { useFleetAccess } from '../../features/fleet-access/use-fleet-access';
import type { DeviceRouteContext } from './device-context';
import '../../features/devices/i18n';
import { paths } from '../../lib/paths';


/**
 * /devices/{uuid} (spec 2 §2 "Device shell rules"): a device that is missing or unreadable
 * (both answer {"d":[]}) goes to /; a frozen organization to its page. The device model has
 * no frozen flag yet, so the frozen-device rule (→ /fleets/{appId}) does not apply.
 */
export function DeviceShellRoute() {
  const uuid = useParams().uuid ?? '';
  return <LoadedDevice key={uuid} uuid={uuid} />;
}

function LoadedDevice({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const device = useDevice(uuid);
  if (device.isError && device.data === undefined) {
    return <FullPageError message={t('devices.page_load_failed')} onRetry={() => void device.refetch()} />;
  }
  if (device.isPending) return <FullPageSpinner />;
  if (device.data === null) return <RedirectWithError to={paths.home()} message={t('devices.not_found')} />;
  const { organization } = device.data.fleet;
  if (organization.is_frozen) return <RedirectWithError to={paths.organization(organization.id)} message={t('devices.organization_frozen')} />;
  return <DeviceShell device={device.data} />;
}

function DeviceShell({ device }: { device: DeviceDetails }) {
  const { t } = useTranslation();
  const { access, isError, refetch } = useFleetAccess(device.fleet.id);
  const { pathname } = useLocation();
  if (isError) return <FullPageError message={t('devices.page_load_failed')} onRetry={() => void refetch()} />;
  if (!access) return <FullPageSpinner />;
  const base = paths.device(device.uuid);
  // The sub-page after /devices/{uuid}/ names the tab; the index is the summary.
  const tab = pathname.slice(base.length + 1).split('/')[0] || 'summary';
  const context: DeviceRouteContext = { device, access };
  return (
    <>
      <PageHeader title={device.device_name} actions={<DeviceActionsMenu device={device} can={access.can} />} />
      <Stack spacing={2}>
        <Link
          component={RouterLink}
          to={paths.application(device.fleet.is_of__class, device.fleet.id)}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('devices.back_to_fleet', { name: device.fleet.app_name })}
        </Link>
        {/* The other device pages of spec 2 §2 (actions, settings, location, …) join these tabs. */}
        <Tabs value={tab} aria-label={t('devices.sections')}>
          <Tab value="summary" label={t('devices.tab_summary')} component={RouterLink} to={base} />
          <Tab value="settings" label={t('devices.tab_settings')} component={RouterLink} to={`${base}/settings`} />
          <Tab value="location" label={t('devices.tab_location')} component={RouterLink} to={`${base}/location`} />
        </Tabs>
        <Outlet context={context} />
      </Stack>
    </>
  );
}
