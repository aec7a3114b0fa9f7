import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/**
 * Spec 2 §5: a fleet's default device type may only change to a type of the same CPU
 * architecture (devices of different architectures cannot be mixed in one fleet).
 */
export async function getCompatibleDeviceTypes(cpuArchitectureId: number) {
  return sdk.pine.get({
    resource: 'device_type',
    options: {
      $select: ['id', 'slug', 'name'],
      $filter: { is_of__cpu_architecture: cpuArchitectureId },
      $orderby: { name: 'asc' },
    },
  });
}

export const compatibleDeviceTypesQueryOptions = (cpuArchitectureId: number) =>
  queryOptions({
    queryKey: ['fleet-settings', 'device-types', cpuArchitectureId],
    queryFn: () => getCompatibleDeviceTypes(cpuArchitectureId),
    // Spec 2 §9: device types are refetched every 60 s.
    staleTime: 60_000,
  });

export function useCompatibleDeviceTypes(cpuArchitectureId: number | undefined) {
  return useQuery({ ...compatibleDeviceTypesQueryOptions(cpuArchitectureId ?? 0), enabled: cpuArchitectureId !== undefined });
}
