import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { getMembershipRoles } from './get-membership-roles';
import { organizationQueryKey } from './get-organization';

export interface AddMemberInput {
  organizationId: number;
  username: string;
  roleName: string;
}

/**
 * Adds an existing user by username (spec 1 §5): POST organization_membership with
 * `username` in place of `user` — a server extension the SDK's types do not know.
 */
export async function addOrganizationMember({ organizationId, username, roleName }: AddMemberInput) {
  const roleId = (await getMembershipRoles()).get(roleName);
  await sdk.pine.post({
    resource: 'organization_membership',
    body: { username, is_member_of__organization: organizationId, organization_membership_role: roleId } as never,
  });
}

export function useAddOrganizationMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addOrganizationMember,
    onSuccess: (_data, { organizationId }) => queryClient.invalidateQueries({ queryKey: organizationQueryKey(organizationId) }),
  });
}
