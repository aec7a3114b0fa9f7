import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceDetailsCard } from '../../features/devices/components/device-details-card';
import { DeviceMetricsCard } from '../../features/devices/components/device-metrics-card';
import { useDeviceRouteContext } from './device-context';

// The services card (its queries, controls and dialogs) is its own chunk: the device page has
// no first-page budget left (ARCHITECTURE.md, 350 KB gzip).
const DeviceServicesCard = lazy(async () => ({ default: (await import('../../features/devices/components/device-services-card')).DeviceServicesCard }));
const DeviceTerminalSlot = lazy(() => import('./device-terminal-slot'));

/**
 * /devices/{uuid} summary (spec 2 §2 "Device pages"): the undervolted danger warning, the
 * device info card, the metrics card and the services card. Logs and terminal panels come
 * with those features.
 */
export function DeviceSummaryRoute() {
  const { t } = useTranslation();
  const { device, access } = useDeviceRouteContext();
  const [panel, setPanel] = useState<'none' | 'tty'>('none');
  return (
    <Stack spacing={2}>
      {device.is_undervolted ? <Alert severity="error">{t('devices.undervolted')}</Alert> : null}
      {/* Panel state 'tty' (spec 2 §2): the expanded terminal hides the other panels. */}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start', display: panel === 'tty' ? 'none' : undefined }}>
        {/* Keyed by device so a refetch after a rename does not reset the note being typed. */}
        <DeviceDetailsCard key={device.id} device={device} can={access.can} />
        <Stack spacing={2} sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          <DeviceMetricsCard device={device} />
          <Suspense fallback={null}>
            <DeviceServicesCard device={device} can={access.can} />
          </Suspense>
        </Stack>
      </Stack>
      <Suspense fallback={null}>
        <DeviceTerminalSlot device={device} access={access} expanded={panel === 'tty'} onExpandedChange={(open) => setPanel(open ? 'tty' : 'none')} />
      </Suspense>
    </Stack>
  );
}
