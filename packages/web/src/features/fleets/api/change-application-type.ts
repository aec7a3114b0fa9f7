import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** The application types one may move to: the non-legacy ones. */
export async function getCurrentApplicationTypes() {
  return sdk.pine.get({
    resource: 'application_type',
    options: { $select: ['id', 'name', 'slug', 'description'], $filter: { is_legacy: false }, $orderby: { name: 'asc' } },
  });
}

export function useCurrentApplicationTypes(enabled: boolean) {
  return useQuery({ queryKey: ['application_type', 'current'] as const, queryFn: getCurrentApplicationTypes, enabled, staleTime: 60_000 });
}

/** Spec 2 §7: PATCH application/{id} with application_type (the server decides who may). */
export function useChangeApplicationType(applicationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (applicationTypeId: number) =>
      sdk.pine.patch({ resource: 'application', id: applicationId, body: { application_type: applicationTypeId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['applications', applicationId] }),
  });
}
