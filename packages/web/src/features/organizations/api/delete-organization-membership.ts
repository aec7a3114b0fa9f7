import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationQueryKey } from './get-organization';

/**
 * DELETE organization_membership({id}) (administrators, or one's own). The server refuses
 * the last administrator with 400 `cannot_delete_last_organization_admin`.
 */
export async function deleteOrganizationMembership({ membershipId }: { organizationId: number; membershipId: number }) {
  await sdk.pine.delete({ resource: 'organization_membership', id: membershipId });
}

export function useDeleteOrganizationMembership() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganizationMembership,
    onSuccess: (_data, { organizationId }) => queryClient.invalidateQueries({ queryKey: organizationQueryKey(organizationId) }),
  });
}
