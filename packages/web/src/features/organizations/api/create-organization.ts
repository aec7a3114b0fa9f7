import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationsQueryKey } from './get-organizations';

/** POST /v7/organization {name}; the server derives the handle. */
export async function createOrganization({ name }: { name: string }) {
  return sdk.models.organization.create({ name });
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationsQueryKey }),
  });
}
