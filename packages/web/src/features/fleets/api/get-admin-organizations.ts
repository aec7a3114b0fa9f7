import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export const adminOrganizationsQueryKey = ['organization_membership', 'administrator'] as const;

/** Spec 1 §6: creating a fleet lists only organizations where the user is administrator. */
export async function getAdminOrganizations() {
  const { id: userId } = await sdk.auth.getUserInfo();
  const memberships = await sdk.pine.get({
    resource: 'organization_membership',
    options: {
      $select: ['id'],
      $filter: {
        user: userId,
        organization_membership_role: { $any: { $alias: 'omr', $expr: { omr: { name: 'administrator' } } } },
      },
      $expand: { is_member_of__organization: { $select: ['id', 'name', 'handle'] } },
    },
  });
  return memberships
    .flatMap((m) => m.is_member_of__organization)
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const adminOrganizationsQueryOptions = () =>
  queryOptions({ queryKey: adminOrganizationsQueryKey, queryFn: getAdminOrganizations });

export function useAdminOrganizations(enabled = true) {
  return useQuery({ ...adminOrganizationsQueryOptions(), enabled });
}
