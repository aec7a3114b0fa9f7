import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import type { DeviceTypeChoice } from '../add-device-rules';

/** Every device type with its CPU architecture (the dialog keeps the fleet's compatible ones). */
export async function getDeviceTypeChoices(): Promise<DeviceTypeChoice[]> {
  const types = await sdk.models.deviceType.getAll({
    $select: ['slug', 'name'],
    $expand: { is_of__cpu_architecture: { $select: 'slug' } },
  });
  return types.map((d) => ({ slug: d.slug, name: d.name, arch: d.is_of__cpu_architecture[0]?.slug ?? '' }));
}

export const deviceTypeChoicesQueryOptions = () =>
  queryOptions({ queryKey: ['device_type', 'with-architecture'] as const, queryFn: getDeviceTypeChoices, staleTime: 60_000 });

export function useDeviceTypeChoices() {
  return useQuery(deviceTypeChoicesQueryOptions());
}

export interface KeyRequest {
  name: string;
  /** ISO date, or null for a key that never expires. */
  expiryDate: string | null;
}

/** A provisioning key for the Linux command (POST /api-key/v2/, operators and up); answered once. */
export function useMintProvisioningKey(fleetId: number) {
  return useMutation({
    mutationFn: (key: KeyRequest) =>
      sdk.models.application.generateProvisioningKey({
        slugOrUuidOrId: fleetId,
        keyName: key.name || undefined,
        keyExpiryDate: key.expiryDate,
      }),
  });
}

/**
 * balenaOS's config.json with a new provisioning key (POST /download-config through
 * balena-sdk's os.getConfig). `version` names the balenaOS release the image runs; the
 * server needs one and writes nothing from it, so the dialog sends "latest".
 */
export function useDownloadConfig(fleetId: number) {
  return useMutation({
    mutationFn: (input: { deviceType: string } & KeyRequest) =>
      sdk.models.os.getConfig(fleetId, {
        version: 'latest',
        deviceType: input.deviceType,
        ...(input.name ? { provisioningKeyName: input.name } : {}),
        ...(input.expiryDate ? { provisioningKeyExpiryDate: input.expiryDate } : {}),
      }),
  });
}
