import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import type { CatalogueOsVersion } from '../os-rules';

/**
 * The device type's host OS releases for the OS line badge (the details card, first page):
 * apart from the update queries and mutations (device-os.ts), which load with the lazy parts.
 */

/** Spec 2 §9: the device-types query (the catalogue) refetches every 60 s. */
export const CATALOGUE_STALE_MS = 60_000;

/** `os.getAvailableOsVersions(deviceType)`: the type's successful, final OS releases, both lines and variants. */
export function useOsVersions(deviceType: string) {
  return useQuery({
    queryKey: ['os-catalogue', 'os', deviceType],
    queryFn: async (): Promise<CatalogueOsVersion[]> => sdk.models.os.getAvailableOsVersions(deviceType),
    staleTime: CATALOGUE_STALE_MS,
  });
}

