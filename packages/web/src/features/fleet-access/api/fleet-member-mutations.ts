import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorStatus } from '../../../lib/errors';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

/**
 * The fleet membership calls of spec 2 §7 (balena-sdk application.membership / invite).
 * Every mutation refreshes everything cached about the fleet, the caller's own role included.
 */

/** The server's 400 keys name the organization in their English text; on a fleet page say "fleet". */
function fleetError(err: unknown, messages: { alreadyMember: string; alreadyInvited: string }): unknown {
  const body = (err as { body?: unknown } | null)?.body;
  if (errorStatus(err) === 400 && body === 'invitee_already_exist') return messages.alreadyMember;
  if (errorStatus(err) === 400 && body === 'invitee_already_invited') return messages.alreadyInvited;
  return err;
}

export interface InviteToFleetInput {
  fleetId: number;
  invitee: string;
  roleName: string;
  message: string | undefined;
  messages: { alreadyMember: string; alreadyInvited: string };
}

async function inviteToFleet({ fleetId, invitee, roleName, message, messages }: InviteToFleetInput) {
  try {
    await sdk.models.application.invite.create(fleetId, { invitee, roleName, ...(message ? { message } : {}) });
  } catch (err) {
    throw fleetError(err, messages);
  }
}

async function addFleetMember({ fleetId, username, roleName }: { fleetId: number; username: string; roleName: string }) {
  await sdk.models.application.membership.create({ application: fleetId, username, roleName });
}

async function changeFleetMemberRole({ membershipId, roleName }: { fleetId: number; membershipId: number; roleName: string }) {
  await sdk.models.application.membership.changeRole(membershipId, roleName);
}

async function removeFleetMember({ membershipId }: { fleetId: number; membershipId: number }) {
  await sdk.models.application.membership.remove(membershipId);
}

async function revokeFleetInvite({ inviteId }: { fleetId: number; inviteId: number }) {
  await sdk.models.application.invite.revoke(inviteId);
}

function useFleetMutation<Input extends { fleetId: number }>(mutationFn: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: (_data, _err, { fleetId }) => queryClient.invalidateQueries({ queryKey: fleetKey(fleetId) }),
  });
}

export const useInviteToFleet = () => useFleetMutation(inviteToFleet);
export const useAddFleetMember = () => useFleetMutation(addFleetMember);
export const useChangeFleetMemberRole = () => useFleetMutation(changeFleetMemberRole);
export const useRemoveFleetMember = () => useFleetMutation(removeFleetMember);
export const useRevokeFleetInvite = () => useFleetMutation(revokeFleetInvite);
