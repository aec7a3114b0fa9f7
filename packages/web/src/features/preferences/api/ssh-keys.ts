import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export interface SshKey {
  id: number;
  title: string;
  public_key: string;
  created_at: string;
}

const sshKeysKey = ['preferences', 'ssh-keys'] as const;

/** The caller's SSH keys (the read rule returns only their own), newest first. */
export function useSshKeys() {
  return useQuery({
    queryKey: sshKeysKey,
    queryFn: async () =>
      (await sdk.models.key.getAll({ $select: ['id', 'title', 'public_key', 'created_at'], $orderby: { created_at: 'desc' } })) as unknown as SshKey[],
  });
}

export function useAddSshKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ title, publicKey }: { title: string; publicKey: string }) => sdk.models.key.create(title, publicKey),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sshKeysKey }),
  });
}

export function useDeleteSshKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => sdk.models.key.remove(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sshKeysKey }),
  });
}

/** The server reads the user's keys from the code host and saves the new ones (none is an error). */
export function useImportSshKeys() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (username: string) => {
      const { body } = await sdk.request.send<{ d: SshKey[] }>({
        method: 'POST',
        baseUrl: window.location.origin,
        url: '/user/v1/ssh-keys/import',
        body: { username },
      });
      return body.d;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sshKeysKey }),
  });
}
