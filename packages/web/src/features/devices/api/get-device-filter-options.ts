import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetDevicesKey } from './keys';

export interface FilterOption {
  id: number;
  label: string;
}

/**
 * The choices of the table's device-type and release filters: the device-type catalogue
 * (device_type has no navigation to its devices to narrow it to the fleet's) and the fleet's
 * releases, newest first.
 */
async function getDeviceFilterOptions(fleetId: number): Promise<{ deviceTypes: FilterOption[]; releases: FilterOption[] }> {
  const [types, releases] = await Promise.all([
    sdk.pine.get({ resource: 'device_type', options: { $select: ['id', 'name'], $orderby: { name: 'asc' } } }),
    sdk.pine.get({
      resource: 'release',
      options: {
        $select: ['id', 'commit', 'raw_version'],
        $filter: { belongs_to__application: fleetId },
        $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
        $top: 200,
      },
    }),
  ]);
  return {
    deviceTypes: types.map((t) => ({ id: t.id, label: t.name })),
    releases: releases.map((r) => ({ id: r.id, label: `${r.raw_version} (${r.commit.slice(0, 7)})` })),
  };
}

export function useDeviceFilterOptions(fleetId: number) {
  return useQuery({
    queryKey: [...fleetDevicesKey(fleetId), 'filter-options'],
    queryFn: () => getDeviceFilterOptions(fleetId),
    // Spec 2 §9: device-types query every 60 s.
    refetchInterval: 60_000,
  });
}
