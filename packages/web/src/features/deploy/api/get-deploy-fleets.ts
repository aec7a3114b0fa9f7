import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const deployFleetsQueryKey = ['deploy', 'fleets'] as const;

/** The fleets the user can read, by name: the 'use existing fleet' choices. */
export async function getDeployFleets() {
  const fleets = await sdk.models.application.getAll({
    $select: ['id', 'app_name'],
    $filter: { is_of__class: 'fleet' },
    $orderby: { app_name: 'asc' },
  });
  return fleets.map((f) => ({ id: f.id, name: f.app_name }));
}

export const deployFleetsQueryOptions = () => queryOptions({ queryKey: deployFleetsQueryKey, queryFn: getDeployFleets });

export function useDeployFleets() {
  return useQuery(deployFleetsQueryOptions());
}
