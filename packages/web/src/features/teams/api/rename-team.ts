import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

/** PATCH team({id}) {name}; a name already used in the organization is a 409. */
export async function renameTeam({ id, name }: { id: number; name: string }) {
  await sdk.pine.patch({ resource: 'team', id, body: { name } });
}

export function useRenameTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: renameTeam, onSuccess: () => queryClient.invalidateQueries({ queryKey: teamsRootKey }) });
}
