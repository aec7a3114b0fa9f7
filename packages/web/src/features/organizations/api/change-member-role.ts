import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { getMembershipRoles } from './get-membership-roles';
import { organizationQueryKey } from './get-organization';

export interface ChangeRolesInput {
  organizationId: number;
  membershipIds: number[];
  roleName: string;
}

/**
 * Batch role change (spec 1 §4): PATCH organization_membership({id}) one at a time
 * (single concurrency). Resolves with how many failed and the first error; demoting the
 * last administrator is a 400 `cannot_delete_last_organization_admin`.
 */
export async function changeMemberRoles({ membershipIds, roleName }: ChangeRolesInput) {
  const roleId = (await getMembershipRoles()).get(roleName);
  let failed = 0;
  let firstError: unknown;
  for (const id of membershipIds) {
    try {
      await sdk.pine.patch({ resource: 'organization_membership', id, body: { organization_membership_role: roleId } });
    } catch (err) {
      failed += 1;
      firstError ??= err;
    }
  }
  return { failed, firstError };
}

export function useChangeMemberRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeMemberRoles,
    onSettled: (_data, _err, { organizationId }) => queryClient.invalidateQueries({ queryKey: organizationQueryKey(organizationId) }),
  });
}
