import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

export type { ApplicationClass } from '@flotilla/model';
import type { ApplicationClass } from '@flotilla/model';

export const organizationApplicationsQueryKey = (organizationId: number, appClass: ApplicationClass) =>
  [...teamsRootKey, 'organization-applications', organizationId, appClass] as const;

/** The organization's fleets (or blocks) that can be assigned to a team, by name. */
export async function getOrganizationApplications(organizationId: number, appClass: ApplicationClass) {
  return sdk.pine.get({
    resource: 'application',
    options: {
      $select: ['id', 'app_name'],
      $filter: { organization: organizationId, is_of__class: appClass },
      $orderby: { app_name: 'asc' },
    },
  });
}

export const organizationApplicationsQueryOptions = (organizationId: number, appClass: ApplicationClass) =>
  queryOptions({
    queryKey: organizationApplicationsQueryKey(organizationId, appClass),
    queryFn: () => getOrganizationApplications(organizationId, appClass),
  });

export function useOrganizationApplications(organizationId: number, appClass: ApplicationClass) {
  return useQuery(organizationApplicationsQueryOptions(organizationId, appClass));
}
