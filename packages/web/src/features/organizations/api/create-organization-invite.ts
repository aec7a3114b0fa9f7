import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationInvitesQueryKey } from './get-organization-invites';

export interface CreateInviteInput {
  organizationId: number;
  invitee: string;
  roleName: string;
  message?: string | undefined;
}

/**
 * POST invitee__is_invited_to__organization (spec 1 §4). The server answers 400 with
 * `invalid_email`, `invitee_already_exist` or `invitee_already_invited` (lib/errors.ts).
 */
export async function createOrganizationInvite({ organizationId, invitee, roleName, message }: CreateInviteInput) {
  await sdk.models.organization.invite.create(organizationId, { invitee, roleName, ...(message ? { message } : {}) });
}

export function useCreateOrganizationInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganizationInvite,
    onSuccess: (_data, { organizationId }) => queryClient.invalidateQueries({ queryKey: organizationInvitesQueryKey(organizationId) }),
  });
}
