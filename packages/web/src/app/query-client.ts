import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { clearSession } from '../features/auth/api/logout';
import { rememberReturnUrl } from '../features/auth/return-url';
import { errorStatus, isSessionError, sessionEndReason, SIGNED_OUT_REASON_KEY } from '../lib/errors';

export function createQueryClient() {
  // Spec 1 §8: not-logged-in or expired-token errors sign the user out; the protected
  // route guard then sends them to /login, and the page they were on is the return URL.
  const onError = (err: unknown) => {
    if (!isSessionError(err)) return;
    // The login page says why (spec 1 §8 'Your session has expired' …).
    sessionStorage.setItem(SIGNED_OUT_REASON_KEY, sessionEndReason(err));
    rememberReturnUrl(window.location.pathname + window.location.search + window.location.hash);
    void clearSession(queryClient);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again.
        retry: (failures, err) => {
          const status = errorStatus(err);
          return !isSessionError(err) && !(status !== undefined && status >= 400 && status < 500) && failures < 2;
        },
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
