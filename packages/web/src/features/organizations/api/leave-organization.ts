import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationsQueryKey, type Organization } from './get-organizations';
import { organizationQueryKey } from './get-organization';

/**
 * Leaving is deleting one's own organization_membership (a user may always do that); the
 * server refuses it for the last administrator (400 `cannot_delete_last_organization_admin`).
 */
export async function leaveOrganization({ membershipId }: { organizationId: number; membershipId: number }) {
  await sdk.pine.delete({ resource: 'organization_membership', id: membershipId });
}

export function useLeaveOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveOrganization,
    onSuccess: (_data, { organizationId }) => {
      void queryClient.cancelQueries({ queryKey: organizationQueryKey(organizationId) });
      // /orgs must not show it while it refetches.
      queryClient.setQueryData<Organization[]>(organizationsQueryKey, (list) => list?.filter((o) => o.id !== organizationId));
      return queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
    },
  });
}
