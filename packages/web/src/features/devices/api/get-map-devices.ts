import type { DeviceOverallStatus } from '@flotilla/model';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pineCount, pineGet } from '../../../lib/pine';
import { deviceTableFilter, type DeviceFilters } from './get-fleet-devices';
import { DEVICE_TABLE_REFETCH_MS, fleetDevicesKey } from './keys';

export interface MapDeviceRow {
  id: number;
  uuid: string;
  device_name: string;
  overall_status: DeviceOverallStatus | null;
  latitude: string | null;
  longitude: string | null;
  custom_latitude: string | null;
  custom_longitude: string | null;
}

/** At most this many devices are drawn; the lens says when a fleet has more. */
export const MAP_DEVICE_LIMIT = 5000;

export interface MapDevices {
  /** Devices with some coordinates (at most MAP_DEVICE_LIMIT). */
  rows: MapDeviceRow[];
  /** Devices with some coordinates in all. */
  withCoordinates: number;
  /** Devices matching the table's filters. */
  total: number;
}

/**
 * Spec 2 §7 "GET devices with a latitude/longitude map filter": the fleet's devices (with the
 * table's filters) that have reported or custom coordinates, plus the counts the lens needs.
 */
export async function getMapDevices(fleetId: number, filters: DeviceFilters): Promise<MapDevices> {
  const base = deviceTableFilter(fleetId, filters);
  const $filter = {
    $and: [
      base,
      {
        $or: [
          { $and: [{ latitude: { $ne: null } }, { longitude: { $ne: null } }] },
          { $and: [{ custom_latitude: { $ne: null } }, { custom_longitude: { $ne: null } }, { $not: { custom_latitude: '' } }] },
        ],
      },
    ],
  };
  const [rows, withCoordinates, total] = await Promise.all([
    pineGet('device', {
      $select: ['id', 'uuid', 'device_name', 'overall_status', 'latitude', 'longitude', 'custom_latitude', 'custom_longitude'],
      $filter,
      $orderby: { id: 'asc' },
      $top: MAP_DEVICE_LIMIT,
    }),
    pineCount('device', { $filter }),
    pineCount('device', { $filter: base }),
  ]);
  return { rows, withCoordinates, total };
}

export function useMapDevices(fleetId: number, filters: DeviceFilters) {
  return useQuery({
    queryKey: [...fleetDevicesKey(fleetId), 'map', filters],
    queryFn: () => getMapDevices(fleetId, filters),
    refetchInterval: DEVICE_TABLE_REFETCH_MS,
    placeholderData: keepPreviousData,
  });
}
