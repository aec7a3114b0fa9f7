import { queryOptions, useQuery } from '@tanstack/react-query';
import { pineCount } from '../../../lib/pine';
import { getDeviceStatusCounts } from '../../../lib/device-status-counts';
import type { FleetDeviceCounts } from '../fleet-settings-rules';
import { fleetSettingsKey } from './keys';

/**
 * The fleet's device total and count per overall status, each a server-side `$count`, so
 * they stay exact at any fleet size (reading every device's status stopped at the data
 * API's largest page, 10,000 rows).
 */
export async function getFleetDeviceCounts(fleetId: number): Promise<FleetDeviceCounts> {
  const [total, byStatus] = await Promise.all([
    pineCount('device', { $filter: { belongs_to__application: fleetId } }),
    getDeviceStatusCounts(fleetId),
  ]);
  return { total, byStatus };
}

export const fleetDeviceCountsQueryOptions = (fleetId: number) =>
  queryOptions({
    queryKey: [...fleetSettingsKey(fleetId), 'device-counts'],
    queryFn: () => getFleetDeviceCounts(fleetId),
    // Spec 2 §9: device and fleet polling every 60 s.
    refetchInterval: 60_000,
  });

export function useFleetDeviceCounts(fleetId: number) {
  return useQuery(fleetDeviceCountsQueryOptions(fleetId));
}
