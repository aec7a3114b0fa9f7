import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const deviceTypesQueryKey = ['device_type'] as const;

/** Device types by name (the SDK orders them). */
export async function getDeviceTypes() {
  return sdk.models.deviceType.getAll({ $select: ['id', 'slug', 'name'] });
}

export const deviceTypesQueryOptions = () =>
  queryOptions({
    queryKey: deviceTypesQueryKey,
    queryFn: getDeviceTypes,
    // Spec 2 §9: device types are refetched every 60 s.
    staleTime: 60_000,
  });

export function useDeviceTypes(enabled = true) {
  return useQuery({ ...deviceTypesQueryOptions(), enabled });
}
