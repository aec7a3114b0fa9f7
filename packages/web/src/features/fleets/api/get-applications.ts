import { FLEET_LIST_REFETCH_MS, type ApplicationClass } from '@flotilla/model';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const applicationsQueryKey = ['applications'] as const;

export interface ApplicationListFilter {
  appClass: ApplicationClass;
  /** Only what this organization owns (/orgs/{orgId}/{class}s). */
  organizationId?: number | undefined;
}

/**
 * Applications of one class the user holds a role on (the server applies the permission
 * filter), by name, each with the overall status of its devices. The statuses come in one
 * `$expand=owns__device($select=overall_status)`: the engine refuses to expand one navigation
 * twice (400 "'owns__device' is expanded twice"), so seven `owns__device/$count($filter=…)`
 * counts would take seven requests every 8 s; one request shipping one short string per
 * device is cheaper for the fleet sizes a dashboard list shows.
 */
export async function getApplications({ appClass, organizationId }: ApplicationListFilter) {
  // The caller's own fleets (balena-sdk's "directly accessible" filter): another
  // organization's public fleet is readable by everybody, but it is not in anyone's list.
  const direct = { is_directly_accessible_by__user: { $any: { $alias: 'dau', $expr: { 1: 1 } } } } as const;
  return sdk.pine.get({
    resource: 'application',
    options: {
      $select: ['id', 'app_name', 'slug', 'is_of__class'],
      $filter:
        organizationId === undefined ? { ...direct, is_of__class: appClass } : { ...direct, is_of__class: appClass, organization: organizationId },
      $expand: {
        organization: { $select: ['id', 'name', 'handle'] },
        is_for__device_type: { $select: ['id', 'slug', 'name'] },
        // Every device's status: the data API's largest page (without $top a level is 1,000 rows).
        owns__device: { $select: ['overall_status'], $top: 10_000 },
      },
      // Spec 2 §7: ordered by app_name ascending.
      $orderby: { app_name: 'asc' },
    },
  });
}

export type ApplicationRow = Awaited<ReturnType<typeof getApplications>>[number];

export const applicationsQueryOptions = (filter: ApplicationListFilter) =>
  queryOptions({
    queryKey: [...applicationsQueryKey, filter.appClass, filter.organizationId ?? null] as const,
    queryFn: () => getApplications(filter),
    // Spec 2 §9: the fleet list is refetched every 8 s.
    refetchInterval: FLEET_LIST_REFETCH_MS,
  });

export function useApplications(filter: ApplicationListFilter) {
  return useQuery(applicationsQueryOptions(filter));
}
