import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { pineGet } from '../../../lib/pine';
import type { LocationFormValues } from '../device-location';
import { DEVICE_REFETCH_MS, deviceKey } from './keys';

export interface DeviceLocation {
  latitude: string | null;
  longitude: string | null;
  custom_latitude: string | null;
  custom_longitude: string | null;
}

export const deviceLocationKey = (uuid: string) => [...deviceKey(uuid), 'location'] as const;

/** The device's reported and custom coordinates (the Location page; the device query stays lean). */
export async function getDeviceLocation(uuid: string): Promise<DeviceLocation | null> {
  const [d] = await pineGet('device', { $select: ['latitude', 'longitude', 'custom_latitude', 'custom_longitude'], $filter: { uuid } });
  return d ?? null;
}

export function useDeviceLocation(uuid: string) {
  return useQuery({ queryKey: deviceLocationKey(uuid), queryFn: () => getDeviceLocation(uuid), refetchInterval: DEVICE_REFETCH_MS });
}

/**
 * Spec 2 §7 "Set custom location: device id with body latitude and longitude; unset custom
 * location by device id": balena-sdk's setCustomLocation / unsetCustomLocation. Geo location
 * clears the custom coordinates.
 */
export function useSaveDeviceLocation(id: number, uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (values: LocationFormValues) => {
      if (values.mode === 'geo') await sdk.models.device.unsetCustomLocation(id);
      else await sdk.models.device.setCustomLocation(id, { latitude: values.latitude.trim(), longitude: values.longitude.trim() });
    },
    // The device's key prefixes its location's, so this refetches both.
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKey(uuid) }),
  });
}
