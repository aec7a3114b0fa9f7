import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const membershipRolesQueryKey = ['organization-membership-roles'] as const;

/** The organization roles (administrator, member) by name → id; POST/PATCH need the id. */
export async function getMembershipRoles(): Promise<Map<string, number>> {
  const roles = await sdk.pine.get({ resource: 'organization_membership_role', options: { $select: ['id', 'name'] } });
  return new Map(roles.map((r) => [r.name, r.id]));
}

export const membershipRolesQueryOptions = () =>
  queryOptions({ queryKey: membershipRolesQueryKey, queryFn: getMembershipRoles, staleTime: Infinity });

export function useMembershipRoles() {
  return useQuery(membershipRolesQueryOptions());
}
