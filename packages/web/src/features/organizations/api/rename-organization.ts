import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationsQueryKey } from './get-organizations';
import { organizationQueryKey } from './get-organization';

/** PATCH /v7/organization({id}) {name}; a name already used (case-insensitive) is a 409. */
export async function renameOrganization({ id, name }: { id: number; name: string }) {
  await sdk.pine.patch({ resource: 'organization', id, body: { name } });
}

export function useRenameOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameOrganization,
    onSuccess: (_data, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: organizationsQueryKey }),
      ]),
  });
}
