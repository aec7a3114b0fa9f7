import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationQueryKey } from './get-organization';

export const organizationFleetsQueryKey = (organizationId: number) => [...organizationQueryKey(organizationId), 'fleets'] as const;

/** The organization's fleets the user can read, by name. */
export async function getOrganizationFleets(organizationId: number) {
  return sdk.pine.get({
    resource: 'application',
    options: {
      $select: ['id', 'app_name', 'slug'],
      $filter: { organization: organizationId, is_of__class: 'fleet' },
      $orderby: { app_name: 'asc' },
    },
  });
}

export type OrganizationFleet = Awaited<ReturnType<typeof getOrganizationFleets>>[number];

export const organizationFleetsQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: organizationFleetsQueryKey(organizationId), queryFn: () => getOrganizationFleets(organizationId) });

export function useOrganizationFleets(organizationId: number) {
  return useQuery(organizationFleetsQueryOptions(organizationId));
}
