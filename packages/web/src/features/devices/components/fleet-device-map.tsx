import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DeviceMarker } from '../../../components/map/device-map';
import type { DeviceFilters } from '../api/get-fleet-devices';
import { useMapDevices } from '../api/get-map-devices';
import { mapPositions } from '../device-location';
import { useDeviceMapText } from './device-map-text';
import '../location-i18n';
import { paths } from '../../../lib/paths';

// Leaflet and its stylesheet load with the map, not with the table.
const DeviceMap = lazy(() => import('../../../components/map/device-map'));

/**
 * The device table's Map lens (spec 2 §2): the fleet's devices (with the table's filters)
 * that have coordinates, custom ones first, as clustered markers linking to each device, and
 * how many devices have no location. Loaded only when the lens is opened.
 */
export function FleetDeviceMap({ fleetId, filters }: { fleetId: number; filters: DeviceFilters }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useMapDevices(fleetId, filters);
  const text = useDeviceMapText('devices.map_region');
  const markers = useMemo<DeviceMarker[]>(
    () =>
      mapPositions(devices.data?.rows ?? []).located.map((d) => ({
        id: d.id,
        lat: d.lat,
        lng: d.lng,
        label: d.device_name,
        status: d.overall_status,
        statusText: d.overall_status ? t(`devices.status_${d.overall_status}`) : t('devices.map_status_unknown'),
        href: paths.device(d.uuid),
      })),
    [devices.data, t],
  );
  if (devices.isError && !devices.data) return <Alert severity="error">{t('devices.map_load_failed')}</Alert>;
  if (!devices.data) return <Skeleton variant="rounded" height={420} aria-label={t('devices.map_loading')} />;
  const { rows, withCoordinates, total } = devices.data;
  // Rows with coordinates the rules reject (out of range, not numbers) count as unlocated.
  const unlocated = total - withCoordinates + (rows.length - markers.length);
  return (
    <Stack spacing={1}>
      <Suspense fallback={<Skeleton variant="rounded" height={420} aria-label={t('devices.map_loading')} />}>
        <DeviceMap markers={markers} text={text} onNavigate={(href) => void navigate(href)} />
      </Suspense>
      <Typography color="text.secondary" data-testid="map-summary">
        {t('devices.map_summary', { count: markers.length })} · {t('devices.map_unlocated', { count: unlocated })}
      </Typography>
      {withCoordinates > rows.length ? (
        <Typography color="text.secondary">{t('devices.map_limited', { shown: rows.length, count: withCoordinates })}</Typography>
      ) : null}
    </Stack>
  );
}
