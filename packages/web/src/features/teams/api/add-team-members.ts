import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pinePost } from '../../../lib/pine';
import { teamsRootKey } from './keys';

/**
 * POST team_membership {username, is_member_of__team} per user (a server extension in
 * place of `user`); the user must be a member of the team's organization (else 400).
 * Returns the usernames that failed, with the first error.
 */
export async function addTeamMembers({ teamId, usernames }: { teamId: number; usernames: string[] }) {
  const failed: string[] = [];
  let firstError: unknown;
  for (const username of usernames) {
    try {
      await pinePost('team_membership', { username, is_member_of__team: teamId });
    } catch (err) {
      failed.push(username);
      firstError ??= err;
    }
  }
  return { failed, firstError };
}

export function useAddTeamMembers() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addTeamMembers, onSettled: () => queryClient.invalidateQueries({ queryKey: teamsRootKey }) });
}
