import { APPLICATION_NAME_AVAILABILITY_CACHE_MS } from '@flotilla/model';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** Spec 2 §7 "GET application names of an organization": what a suggested name must avoid. */
export async function getOrganizationApplicationNames(organizationId: number): Promise<string[]> {
  const apps = await sdk.pine.get({
    resource: 'application',
    options: { $select: ['app_name'], $filter: { organization: organizationId } },
  });
  return apps.map((a) => a.app_name);
}

export function useOrganizationApplicationNames(organizationId: number | undefined) {
  return useQuery({
    queryKey: ['applications', 'names', organizationId ?? null] as const,
    queryFn: () => getOrganizationApplicationNames(organizationId!),
    enabled: organizationId !== undefined,
  });
}

/**
 * The user's applications named `name` whatever the case (spec 2 §5: names are unique that
 * way across the user's applications). The server returns only applications the user reads.
 */
export async function getApplicationsNamed(name: string) {
  return sdk.pine.get({
    resource: 'application',
    options: {
      $select: ['app_name', 'is_of__class'],
      // The user's own applications only: public ones of other organizations (the platform's
      // host OS catalogue, `balena_os/raspberrypi3`) are readable but do not take a name.
      $filter: {
        $eq: [{ $tolower: { $: 'app_name' } }, name.toLowerCase()],
        is_directly_accessible_by__user: { $any: { $alias: 'dau', $expr: { 1: 1 } } },
      },
    },
  });
}

export const applicationsNamedQueryOptions = (name: string) =>
  queryOptions({
    queryKey: ['applications', 'named', name.toLowerCase()] as const,
    queryFn: () => getApplicationsNamed(name),
    // Spec 2 §9: availability answers are reused for 8 seconds.
    staleTime: APPLICATION_NAME_AVAILABILITY_CACHE_MS,
  });

export function useApplicationsNamed(name: string, enabled: boolean) {
  return useQuery({ ...applicationsNamedQueryOptions(name), enabled });
}
