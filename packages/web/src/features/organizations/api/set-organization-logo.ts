import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationQueryKey } from './get-organization';

/**
 * PUT /organization/{id}/logo with the image itself as the body (a base64 data URL of a
 * 1,000,000-byte image would not fit a JSON body). `json: false` makes balena-request send
 * the Blob as it is. 204, or 400 with the reason as a JSON string, 401, 404.
 */
export async function setOrganizationLogo({ id, file }: { id: number; file: Blob }) {
  await sdk.request.send({
    method: 'PUT',
    baseUrl: window.location.origin,
    url: `/organization/${id}/logo`,
    json: false,
    body: file,
    headers: { 'Content-Type': file.type },
  });
}

export function useSetOrganizationLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setOrganizationLogo,
    onSuccess: (_data, { id }) => queryClient.invalidateQueries({ queryKey: organizationQueryKey(id) }),
  });
}
