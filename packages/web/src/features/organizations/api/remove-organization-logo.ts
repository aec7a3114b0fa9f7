import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationQueryKey } from './get-organization';

/** DELETE /organization/{id}/logo: 204, or 401/404. */
export async function removeOrganizationLogo({ id }: { id: number }) {
  await sdk.request.send({ method: 'DELETE', baseUrl: window.location.origin, url: `/organization/${id}/logo` });
}

export function useRemoveOrganizationLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeOrganizationLogo,
    onSuccess: (_data, { id }) => queryClient.invalidateQueries({ queryKey: organizationQueryKey(id) }),
  });
}
