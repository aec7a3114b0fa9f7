import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { clearReturnUrl } from '../return-url';
import { sessionQueryKey } from '../../../lib/get-session';

/**
 * Forgets the token and every cached query. The session becomes `null` first so the
 * route guards unmount protected pages before their queries disappear.
 */
export async function clearSession(queryClient: QueryClient) {
  await sdk.auth.logout();
  queryClient.setQueryData(sessionQueryKey, null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] });
}

/** "Sign out": the protected-route guard then sends the user to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      clearReturnUrl();
      await clearSession(queryClient);
    },
  });
}
