import { Paper, Skeleton, Stack } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { useFleetSettings } from '../../features/fleet-settings/api/get-fleet-settings';
import { FleetDevicesCard } from '../../features/fleet-settings/components/fleet-devices-card';
import { FleetReleasesCard } from '../../features/fleet-settings/components/fleet-releases-card';
import { FleetSummaryDetailsCard } from '../../features/fleet-settings/components/fleet-summary-details-card';
import { useFleetRouteContext } from './fleet-context';

// The device table (and its strings) loads after the summary's cards: not on the first page.
const FleetDevicesTable = lazy(async () => ({ default: (await import('./fleet-devices')).FleetDevicesRoute }));

/**
 * /{class}s/{id} (summary, the default sub-page; spec 2 §2 "Fleet pages"): the details,
 * devices and releases cards, and the device table.
 */
export function FleetSummaryRoute() {
  const { t } = useTranslation();
  const { fleet } = useFleetRouteContext();
  const base = `/${useLocation().pathname.split('/')[1] ?? 'fleets'}/${fleet.id}`;
  const settings = useFleetSettings(fleet.id);
  if (settings.isError) return <FullPageError message={t('fleet.load_failed')} onRetry={() => void settings.refetch()} />;
  if (!settings.data) return <FullPageSpinner />;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'stretch' }}>
        <FleetSummaryDetailsCard fleet={settings.data} />
        <FleetDevicesCard fleetId={fleet.id} />
        <FleetReleasesCard fleetId={fleet.id} base={base} />
      </Stack>
      <Suspense
        fallback={
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Skeleton height={120} />
          </Paper>
        }
      >
        <FleetDevicesTable />
      </Suspense>
    </Stack>
  );
}
