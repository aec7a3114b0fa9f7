import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { DeviceDetailsCard } from '../../features/devices/components/device-details-card';
import { DeviceMetricsCard } from '../../features/devices/components/device-metrics-card';
import { useDeviceRouteContext } from './device-context';

/**
 * /devices/{uuid} summary (spec 2 §2 "Device pages"): the undervolted danger warning, the
 * device info card and the metrics card. Logs and terminal panels come with those features.
 */
export function DeviceSummaryRoute() {
  const { t } = useTranslation();
  const { device, access } = useDeviceRouteContext();
  return (
    <Stack spacing={2}>
      {device.is_undervolted ? <Alert severity="error">{t('devices.undervolted')}</Alert> : null}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        {/* Keyed by device so a refetch after a rename does not reset the note being typed. */}
        <DeviceDetailsCard key={device.id} device={device} can={access.can} />
        <DeviceMetricsCard device={device} />
      </Stack>
    </Stack>
  );
}
