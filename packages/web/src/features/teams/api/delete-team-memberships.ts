import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

/**
 * DELETE team_membership by id-in-list (administrators; anyone may delete their own,
 * which is leaving the team).
 */
export async function deleteTeamMemberships({ membershipIds }: { membershipIds: number[]; leaving?: boolean }) {
  await sdk.pine.delete({ resource: 'team_membership', options: { $filter: { id: { $in: membershipIds } } } });
}

export function useDeleteTeamMemberships() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTeamMemberships,
    // Leaving a team changes which fleets one can see anywhere in the app.
    onSuccess: (_data, { leaving }) =>
      leaving ? queryClient.invalidateQueries() : queryClient.invalidateQueries({ queryKey: teamsRootKey }),
  });
}
