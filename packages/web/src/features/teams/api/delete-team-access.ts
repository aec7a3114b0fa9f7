import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

/** DELETE team_application_access by id-in-list (organization administrators). */
export async function deleteTeamAccess({ accessIds }: { accessIds: number[] }) {
  await sdk.pine.delete({ resource: 'team_application_access', options: { $filter: { id: { $in: accessIds } } } });
}

export function useDeleteTeamAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteTeamAccess, onSuccess: () => queryClient.invalidateQueries({ queryKey: teamsRootKey }) });
}
