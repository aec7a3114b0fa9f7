import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const organizationsQueryKey = ['organizations'] as const;

/** Organizations the user belongs to, by name, with the user's role in each. */
export async function getOrganizations() {
  const { id: userId } = await sdk.auth.getUserInfo();
  const memberOf = { $any: { $alias: 'om', $expr: { om: { user: userId } } } };
  return sdk.models.organization.getAll({
    $select: ['id', 'name', 'handle'],
    $filter: { organization_membership: memberOf },
    $expand: {
      organization_membership: {
        $select: ['id'],
        $filter: { user: userId },
        $expand: { organization_membership_role: { $select: ['name'] } },
      },
    },
  });
}

export type Organization = Awaited<ReturnType<typeof getOrganizations>>[number];

export const organizationsQueryOptions = () => queryOptions({ queryKey: organizationsQueryKey, queryFn: getOrganizations });

export function useOrganizations() {
  return useQuery(organizationsQueryOptions());
}
