import { effectiveLocation } from '@flotilla/model';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DeviceMarker } from '../../../../components/map/device-map';
import type { FleetAccess } from '../../../../lib/fleet-access';
import { useDeviceLocation, type DeviceLocation } from '../../api/device-location';
import type { DeviceDetails } from '../../api/get-device';
import { initialLocationForm } from '../../device-location';
import { useDeviceMapText } from '../device-map-text';
import { formatTimestamp } from '../format';
import '../../location-i18n';
import { paths } from '../../../../lib/paths';

const DeviceMap = lazy(() => import('../../../../components/map/device-map'));
// The form's inputs (text fields, radios, tooltip) load after the first paint: the page stays
// within the 350 KB first-page budget.
const DeviceLocationForm = lazy(async () => ({ default: (await import('./device-location-form')).DeviceLocationForm }));

/**
 * The device Location page (spec 2 §2): a map with the device's marker, the offline and
 * 'location not determined' warnings (§8), the last location, and the Options panel that
 * switches between the reported (geo) location and a manual one (§4 "Location form").
 */
export function DeviceLocationPage({ device, access }: { device: DeviceDetails; access: FleetAccess }) {
  const { t } = useTranslation();
  const location = useDeviceLocation(device.uuid);
  if (location.isError && !location.data) return <Alert severity="error">{t('devices.location_load_failed')}</Alert>;
  if (!location.data) return <Skeleton variant="rounded" height={420} aria-label={t('devices.map_loading')} />;
  return <LoadedLocation device={device} location={location.data} canUpdate={access.can('resin.device.update')} />;
}

function LoadedLocation({ device, location, canUpdate }: { device: DeviceDetails; location: DeviceLocation; canUpdate: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const text = useDeviceMapText('devices.map_device_region');
  const at = effectiveLocation(location);
  const offline = !device.is_online && device.api_heartbeat_state !== 'online';
  const statusText = device.overall_status ? t(`devices.status_${device.overall_status}`) : t('devices.map_status_unknown');
  const markers = useMemo<DeviceMarker[]>(
    () => (at ? [{ id: device.id, lat: at.lat, lng: at.lng, label: device.device_name, status: device.overall_status, statusText, href: paths.device(device.uuid) }] : []),
    [at?.lat, at?.lng, device.id, device.device_name, device.overall_status, device.uuid, statusText],
  );
  const initial = initialLocationForm(location);
  const lastSeen = formatTimestamp(device.last_connectivity_event);
  return (
    <Stack spacing={2}>
      {offline ? (
        <Alert severity="warning" data-testid="location-offline">
          {t('devices.location_offline')}
        </Alert>
      ) : null}
      {at ? null : (
        <Alert severity="warning" data-testid="location-not-determined">
          {t('devices.location_not_determined')}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={1}>
          <Suspense fallback={<Skeleton variant="rounded" height={360} aria-label={t('devices.map_loading')} />}>
            <DeviceMap markers={markers} text={text} height={360} singleZoom={11} onNavigate={(href) => void navigate(href)} />
          </Suspense>
          {at ? (
            <Typography data-testid="location-last">
              {t(at.source === 'custom' ? 'devices.location_last_manual' : 'devices.location_last_reported', { lat: at.lat, lng: at.lng })}
              {lastSeen && at.source === 'reported' ? ` ${t('devices.location_last_seen', { time: lastSeen })}` : ''}
            </Typography>
          ) : null}
        </Stack>
      </Paper>
      <Suspense fallback={<Skeleton variant="rounded" height={160} />}>
        <DeviceLocationForm key={JSON.stringify(initial)} deviceId={device.id} uuid={device.uuid} initial={initial} canUpdate={canUpdate} />
      </Suspense>
    </Stack>
  );
}
