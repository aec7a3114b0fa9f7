import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

/** Access roles, lowest to highest (spec 1 §9). */
export const APPLICATION_ROLES = ['observer', 'operator', 'developer', 'administrator'] as const;

export const applicationRolesQueryKey = [...teamsRootKey, 'application-roles'] as const;

/** application_membership_role name → id. */
export async function getApplicationRoles(): Promise<Map<string, number>> {
  const roles = await sdk.pine.get({ resource: 'application_membership_role', options: { $select: ['id', 'name'] } });
  return new Map(roles.map((r) => [r.name, r.id]));
}

export const applicationRolesQueryOptions = queryOptions({
  queryKey: applicationRolesQueryKey,
  queryFn: getApplicationRoles,
  staleTime: Infinity,
});

export function useApplicationRoles() {
  return useQuery(applicationRolesQueryOptions);
}
