import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationQueryKey } from './get-organization';

export const myOrganizationMembershipQueryKey = (organizationId: number) =>
  [...organizationQueryKey(organizationId), 'my-membership'] as const;

/** The current user's membership of the organization (with its role), or null. */
export async function getMyOrganizationMembership(organizationId: number) {
  const { id: userId } = await sdk.auth.getUserInfo();
  const [membership] = await sdk.pine.get({
    resource: 'organization_membership',
    options: {
      $select: ['id'],
      $filter: { user: userId, is_member_of__organization: organizationId },
      $expand: { organization_membership_role: { $select: ['name'] } },
    },
  });
  if (!membership) return null;
  return { id: membership.id, role: membership.organization_membership_role[0]?.name ?? null };
}

export type MyOrganizationMembership = NonNullable<Awaited<ReturnType<typeof getMyOrganizationMembership>>>;

export const myOrganizationMembershipQueryOptions = (organizationId: number) =>
  queryOptions({
    queryKey: myOrganizationMembershipQueryKey(organizationId),
    queryFn: () => getMyOrganizationMembership(organizationId),
  });

export function useMyOrganizationMembership(organizationId: number) {
  return useQuery(myOrganizationMembershipQueryOptions(organizationId));
}
