import type { DeviceOverallStatus } from '@flotilla/model';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';
import { DEVICE_REFETCH_MS, deviceKey } from './keys';

export interface ReleaseRef {
  id: number;
  commit: string;
  raw_version: string;
}

/** The device page's device: the spec 2 §2 summary-card fields the model has, and metrics. */
export interface DeviceDetails {
  id: number;
  uuid: string;
  device_name: string;
  note: string | null;
  created_at: string;
  is_active: boolean;
  is_online: boolean;
  is_undervolted: boolean;
  overall_status: DeviceOverallStatus | null;
  overall_progress: number | null;
  /** Billing (issue 18): frozen organization, or beyond the free allowance on the free plan. */
  is_frozen: boolean | null;
  api_heartbeat_state: string;
  last_connectivity_event: string | null;
  /** When the device last polled its target state (the API heartbeat). */
  api_heartbeat_at: string | null;
  update_status: string | null;
  /** When update_status last changed. */
  last_update_status_event: string | null;
  os_version: string | null;
  os_variant: string | null;
  supervisor_version: string | null;
  is_accessible_by_support_until__date: string | null;
  ip_address: string | null;
  public_address: string | null;
  mac_address: string | null;
  cpu_usage: number | null;
  cpu_temp: number | null;
  memory_usage: number | null;
  memory_total: number | null;
  storage_usage: number | null;
  storage_total: number | null;
  fleet: {
    id: number;
    app_name: string;
    is_of__class: string;
    organization: { id: number; is_frozen: boolean };
    target: ReleaseRef | null;
    /** The fleet's support-access grant (a device is open to support under its own or its fleet's). */
    is_accessible_by_support_until__date: string | null;
  };
  deviceType: { slug: string; name: string; contract: unknown };
  running: ReleaseRef | null;
  pinned: ReleaseRef | null;
}

const RELEASE_SELECT = { $select: ['id', 'commit', 'raw_version'] } as const;

/** GET device by uuid expanding its fleet and device type (spec 2 §7); null when not found. */
export async function getDevice(uuid: string): Promise<DeviceDetails | null> {
  const [d] = await pineGet('device', {
    $select: [
      'id', 'uuid', 'device_name', 'note', 'created_at', 'is_active', 'is_online', 'is_undervolted', 'overall_status', 'overall_progress', 'is_frozen',
      'api_heartbeat_state', 'api_heartbeat_at', 'last_connectivity_event', 'update_status', 'last_update_status_event', 'os_version', 'os_variant', 'supervisor_version',
      'is_accessible_by_support_until__date', 'ip_address', 'public_address', 'mac_address', 'cpu_usage', 'cpu_temp',
      'memory_usage', 'memory_total', 'storage_usage', 'storage_total',
    ],
    $filter: { uuid },
    $expand: {
      belongs_to__application: {
        $select: ['id', 'app_name', 'is_of__class', 'is_accessible_by_support_until__date'],
        $expand: { organization: { $select: ['id', 'is_frozen'] }, should_be_running__release: RELEASE_SELECT },
      },
      is_of__device_type: { $select: ['slug', 'name', 'contract'] },
      is_running__release: RELEASE_SELECT,
      is_pinned_on__release: RELEASE_SELECT,
    },
  });
  if (!d) return null;
  const { belongs_to__application, is_of__device_type, is_running__release, is_pinned_on__release, ...rest } = d;
  const app = belongs_to__application[0]!;
  return {
    ...rest,
    fleet: {
      id: app.id,
      app_name: app.app_name,
      is_of__class: app.is_of__class,
      organization: app.organization[0]!,
      target: app.should_be_running__release[0] ?? null,
      is_accessible_by_support_until__date: app.is_accessible_by_support_until__date,
    },
    deviceType: is_of__device_type[0]!,
    running: is_running__release[0] ?? null,
    pinned: is_pinned_on__release[0] ?? null,
  };
}

export const deviceQueryOptions = (uuid: string) =>
  queryOptions({ queryKey: deviceKey(uuid), queryFn: () => getDevice(uuid), refetchInterval: DEVICE_REFETCH_MS });

export function useDevice(uuid: string) {
  return useQuery(deviceQueryOptions(uuid));
}
