import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamQueryKey } from './get-team';
import { teamsRootKey } from './keys';

/** DELETE team({id}) (organization administrators). */
export async function deleteTeam({ id }: { id: number }) {
  await sdk.pine.delete({ resource: 'team', id });
}

export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTeam,
    onSuccess: (_data, { id }) => {
      queryClient.removeQueries({ queryKey: teamQueryKey(id) });
      return queryClient.invalidateQueries({ queryKey: teamsRootKey });
    },
  });
}
