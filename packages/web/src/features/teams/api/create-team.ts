import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

/** POST team {name, belongs_to__organization}; a name already used in the organization is a 409. */
export async function createTeam({ organizationId, name }: { organizationId: number; name: string }) {
  return sdk.pine.post({ resource: 'team', body: { name, belongs_to__organization: organizationId } });
}

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createTeam, onSuccess: () => queryClient.invalidateQueries({ queryKey: teamsRootKey }) });
}
