import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { countByStatus, type FleetDeviceCounts } from '../fleet-settings-rules';
import { fleetSettingsKey } from './keys';

/** The fleet's devices' overall statuses in one request (as the fleet lists read them). */
export async function getFleetDeviceCounts(fleetId: number): Promise<FleetDeviceCounts> {
  const devices = await sdk.pine.get({
    resource: 'device',
    // Every device: the data API's largest page (without $top it answers 1,000 rows).
    options: { $select: ['overall_status'], $filter: { belongs_to__application: fleetId }, $top: 10_000 },
  });
  return countByStatus(devices.map((d) => (d as { overall_status: string | null }).overall_status));
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
