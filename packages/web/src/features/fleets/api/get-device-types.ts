import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const deviceTypesQueryKey = ['device_type', 'with-contract'] as const;

/** Device types by name (the SDK orders them), with the contract that says whether each may be chosen. */
export async function getDeviceTypes() {
  return sdk.models.deviceType.getAll({ $select: ['id', 'slug', 'name', 'logo', 'contract'] });
}

export type DeviceTypeRow = Awaited<ReturnType<typeof getDeviceTypes>>[number];

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
