import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { PageHeader } from '../../components/page-header';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useDevice, type DeviceDetails } from '../../features/devices/api/get-device';
import { DeviceActionsMenu } from '../../features/devices/components/device-actions-menu';
import { useFleetAccess } from '../../features/fleet-access/use-fleet-access';
import { NotFoundOrRefused } from '../../features/fleet-access/components/not-found-or-refused';
import type { DeviceRouteContext } from './device-context';
import '../../features/devices/i18n';
import { paths } from '../../lib/paths';

// The refused page for provider staff (issue 19) loads only when it is shown.

// The support-access banner shows to provider staff only: it loads after the page.
const SupportAccessBanner = lazy(async () => ({ default: (await import('../../features/fleet-access/components/support-access-banner')).SupportAccessBanner }));

// The billing banners (issue 18) load after the page, and not at all with billing off.
const BillingBanners = lazy(async () => ({ default: (await import('../../features/billing-banners')).BillingBanners }));

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
  if (device.data === null) return <DeviceNotFound />;
  const { organization } = device.data.fleet;
  if (organization.is_frozen) return <RedirectWithError to={paths.organization(organization.id)} message={t('devices.organization_frozen')} />;
  return <DeviceShell device={device.data} />;
}

/** A missing or unreadable device: to /; for provider staff, the refused page (issue 19: no support access granted). */
function DeviceNotFound() {
  const { t } = useTranslation();
  return <NotFoundOrRefused kind="device" to={paths.home()} message={t('devices.not_found')} />;
}

/** The later of the device's and its fleet's support-access grants (either opens the device to support). */
const laterGrant = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : new Date(a) > new Date(b) ? a : b);

/** The shell's tabs; a page without one (the diagnostics URL of a caller without the right) selects none. */
const DEVICE_TABS = new Set(['summary', 'envvars', 'config', 'actions', 'settings', 'location', 'diagnostics']);

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
  const canDiagnose = access.can('resin.device.access_diagnostics');
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
        {access.staff !== null && (
          <Suspense fallback={null}>
            <SupportAccessBanner access={access} supportUntil={laterGrant(device.is_accessible_by_support_until__date, device.fleet.is_accessible_by_support_until__date)} />
          </Suspense>
        )}
        <Suspense fallback={null}>
          <BillingBanners organizationId={device.fleet.organization.id} />
        </Suspense>
        {/* Issue 16: Variables and Configuration directly after Summary, then the rest of spec 2 §2's order. */}
        <Tabs value={DEVICE_TABS.has(tab) && (tab !== 'diagnostics' || canDiagnose) ? tab : false} aria-label={t('devices.sections')}>
          <Tab value="summary" label={t('devices.tab_summary')} component={RouterLink} to={base} />
          <Tab value="envvars" label={t('devices.tab_envvars')} component={RouterLink} to={`${base}/envvars`} />
          <Tab value="config" label={t('devices.tab_config')} component={RouterLink} to={`${base}/config`} />
          <Tab value="actions" label={t('devices.tab_actions')} component={RouterLink} to={`${base}/actions`} />
          <Tab value="settings" label={t('devices.tab_settings')} component={RouterLink} to={`${base}/settings`} />
          <Tab value="location" label={t('devices.tab_location')} component={RouterLink} to={`${base}/location`} />
          {/* Spec 2 §6: only with resin.device.access_diagnostics. */}
          {canDiagnose ? (
            <Tab value="diagnostics" label={t('devices.tab_diagnostics')} component={RouterLink} to={`${base}/diagnostics`} />
          ) : null}
        </Tabs>
        <Outlet context={context} />
      </Stack>
    </>
  );
}
