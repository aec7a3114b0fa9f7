import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/**
 * Spec 2 §5, §7 "Query organizations where the user is administrator (id, name, order by
 * name)": the targets of a transfer, without the fleet's current organization.
 */
export async function getTransferOrganizations(currentOrganizationId: number) {
  const { id: userId } = await sdk.auth.getUserInfo();
  const organizations = await sdk.pine.get({
    resource: 'organization',
    options: {
      $select: ['id', 'name'],
      $filter: {
        id: { $ne: currentOrganizationId },
        organization_membership: {
          $any: {
            $alias: 'om',
            $expr: {
              om: { user: userId, organization_membership_role: { $any: { $alias: 'omr', $expr: { omr: { name: 'administrator' } } } } },
            },
          },
        },
      },
      $orderby: { name: 'asc' },
    },
  });
  return organizations.map((o) => ({ id: o.id, name: o.name }));
}

export const transferOrganizationsQueryOptions = (currentOrganizationId: number) =>
  queryOptions({
    queryKey: ['fleet-settings', 'transfer-organizations', currentOrganizationId],
    queryFn: () => getTransferOrganizations(currentOrganizationId),
  });

export function useTransferOrganizations(currentOrganizationId: number, enabled: boolean) {
  return useQuery({ ...transferOrganizationsQueryOptions(currentOrganizationId), enabled });
}
