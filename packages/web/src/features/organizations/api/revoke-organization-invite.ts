import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationInvitesQueryKey } from './get-organization-invites';

/** DELETE invitee__is_invited_to__organization({id}): revokes a pending invite. */
export async function revokeOrganizationInvite({ inviteId }: { organizationId: number; inviteId: number }) {
  await sdk.models.organization.invite.revoke(inviteId);
}

export function useRevokeOrganizationInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOrganizationInvite,
    onSettled: (_data, _err, { organizationId }) => queryClient.invalidateQueries({ queryKey: organizationInvitesQueryKey(organizationId) }),
  });
}
