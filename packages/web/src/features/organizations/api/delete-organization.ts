import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationsQueryKey, type Organization } from './get-organizations';
import { organizationQueryKey } from './get-organization';

/** DELETE /v7/organization({id}); the server allows it to the organization's administrators. */
export async function deleteOrganization({ id }: { id: number }) {
  await sdk.pine.delete({ resource: 'organization', id });
}

export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: (_data, { id }) => {
      // The page leaves; its queries must not refetch a gone organization meanwhile.
      void queryClient.cancelQueries({ queryKey: organizationQueryKey(id) });
      // /orgs must not show it while it refetches.
      queryClient.setQueryData<Organization[]>(organizationsQueryKey, (list) => list?.filter((o) => o.id !== id));
      return queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
    },
  });
}
