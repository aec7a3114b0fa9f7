import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceMapText } from '../../../components/map/device-map';

/** The map component's words (markers, clusters, tile notices) from the devices bundle. */
export function useDeviceMapText(region: 'devices.map_region' | 'devices.map_device_region'): DeviceMapText {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      map: t(region),
      marker: (m) => t('devices.map_marker', { name: m.label, status: m.statusText }),
      cluster: (count) => t('devices.map_cluster', { count }),
      clusterList: (count) => t('devices.map_cluster_list', { count }),
      more: (count) => t('devices.map_more', { count }),
      tilesUnavailable: t('devices.map_tiles_unavailable'),
      tilesNotConfigured: t('devices.map_tiles_not_configured'),
    }),
    [t, region],
  );
}
