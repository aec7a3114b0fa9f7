import { FLEET_LIST_REFETCH_MS } from '@flotilla/model';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const fleetsQueryKey = ['fleets'] as const;

/** Fleets the user can read (the server applies the permission filter), by name. */
export async function getFleets() {
  return sdk.models.application.getAll({
    $select: ['id', 'app_name', 'slug'],
    $filter: { is_of__class: 'fleet' },
    $expand: {
      organization: { $select: ['id', 'name', 'handle'] },
      is_for__device_type: { $select: ['id', 'slug', 'name'] },
    },
  });
}

export type Fleet = Awaited<ReturnType<typeof getFleets>>[number];

export const fleetsQueryOptions = () =>
  queryOptions({
    queryKey: fleetsQueryKey,
    queryFn: getFleets,
    // Spec 2 §9: the fleet list is refetched every 8 s.
    refetchInterval: FLEET_LIST_REFETCH_MS,
  });

export function useFleets() {
  return useQuery(fleetsQueryOptions());
}
