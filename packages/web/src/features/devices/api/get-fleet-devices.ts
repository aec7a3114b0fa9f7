import type { DeviceOverallStatus } from '@flotilla/model';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getDeviceStatusCounts } from '../../../lib/device-status-counts';
import { pineCount, pineGet } from '../../../lib/pine';
import { DEVICE_PAGE_SIZE, DEVICE_TABLE_REFETCH_MS, fleetDevicesKey } from './keys';

export interface DeviceFilters {
  status?: DeviceOverallStatus;
  deviceTypeId?: number;
  /** `is_running__release` (the release page links here with it). */
  releaseId?: number;
  /** Contained in the name or the uuid, case-insensitively. */
  search?: string;
}

export interface DeviceRow {
  id: number;
  uuid: string;
  device_name: string;
  overall_status: DeviceOverallStatus | null;
  /** Billing (issue 18): frozen organization, or beyond the free allowance on the free plan. */
  is_frozen: boolean | null;
  last_connectivity_event: string | null;
  api_heartbeat_at: string | null;
  is_online: boolean;
  os_version: string | null;
  os_variant: string | null;
  ip_address: string | null;
  deviceType: { slug: string; name: string } | null;
  release: { id: number; commit: string; raw_version: string } | null;
}

export interface DevicePage {
  rows: DeviceRow[];
  /** Devices matching the filters. */
  total: number;
}

const lowerContains = (field: string, text: string) => ({ $contains: [{ $tolower: { $: [field] } }, text] });

/** The pine $filter for a fleet's devices with the table's filters. */
export function deviceTableFilter(fleetId: number, filters: DeviceFilters): object {
  const and: object[] = [{ belongs_to__application: fleetId }];
  if (filters.status) and.push({ overall_status: filters.status });
  if (filters.deviceTypeId !== undefined) and.push({ is_of__device_type: filters.deviceTypeId });
  if (filters.releaseId !== undefined) and.push({ is_running__release: filters.releaseId });
  const text = filters.search?.trim().toLowerCase();
  if (text) and.push({ $or: [lowerContains('device_name', text), lowerContains('uuid', text)] });
  // pine wants at least two operands in an $and.
  return and.length === 1 ? and[0]! : { $and: and };
}

/**
 * One page of a fleet's devices (spec 2 §7: `$top` page size, ordered by
 * last_connectivity_event desc then id desc, plus a count query with the same filter).
 */
export async function getFleetDevices(fleetId: number, filters: DeviceFilters, page: number, pageSize: number = DEVICE_PAGE_SIZE): Promise<DevicePage> {
  const $filter = deviceTableFilter(fleetId, filters);
  const [devices, total] = await Promise.all([
    pineGet('device', {
      $select: ['id', 'uuid', 'device_name', 'overall_status', 'is_frozen', 'last_connectivity_event', 'api_heartbeat_at', 'is_online', 'os_version', 'os_variant', 'ip_address'],
      $expand: {
        is_of__device_type: { $select: ['slug', 'name'] },
        is_running__release: { $select: ['id', 'commit', 'raw_version'] },
      },
      $filter,
      $orderby: [{ last_connectivity_event: 'desc' }, { id: 'desc' }],
      $top: pageSize,
      $skip: page * pageSize,
    }),
    pineCount('device', { $filter }),
  ]);
  return {
    total,
    rows: devices.map(({ is_of__device_type, is_running__release, ...d }) => ({
      ...d,
      deviceType: is_of__device_type[0] ?? null,
      release: is_running__release[0] ?? null,
    })),
  };
}

export const fleetDevicesQueryOptions = (fleetId: number, filters: DeviceFilters, page: number, pageSize: number = DEVICE_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...fleetDevicesKey(fleetId), 'page', filters, page, pageSize],
    queryFn: () => getFleetDevices(fleetId, filters, page, pageSize),
    refetchInterval: DEVICE_TABLE_REFETCH_MS,
    placeholderData: keepPreviousData,
  });

/** `enabled: false` while the table is not shown (the Map lens has its own query): no polling. */
export function useFleetDevices(fleetId: number, filters: DeviceFilters, page: number, pageSize: number = DEVICE_PAGE_SIZE, enabled = true) {
  return useQuery({ ...fleetDevicesQueryOptions(fleetId, filters, page, pageSize), enabled });
}

export function useDeviceStatusCounts(fleetId: number) {
  return useQuery({
    queryKey: [...fleetDevicesKey(fleetId), 'status-counts'],
    queryFn: () => getDeviceStatusCounts(fleetId),
    refetchInterval: DEVICE_TABLE_REFETCH_MS,
  });
}
