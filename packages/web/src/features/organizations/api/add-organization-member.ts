import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pinePost } from '../../../lib/pine';
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
  // The role is required (the model has no default for it); the choices come from these roles.
  if (roleId === undefined) throw new Error(`Unknown organization role '${roleName}'`);
  await pinePost('organization_membership', { username, is_member_of__organization: organizationId, organization_membership_role: roleId });
}

export function useAddOrganizationMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addOrganizationMember,
    onSuccess: (_data, { organizationId }) => queryClient.invalidateQueries({ queryKey: organizationQueryKey(organizationId) }),
  });
}
