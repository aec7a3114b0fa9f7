import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { connectivity } from '../lib/connectivity';
import { followConnectivity } from '../lib/connectivity/data-layer';
import { errorStatus, isSessionError, sessionEndReason } from '../lib/errors';
import { endSession } from './platform/session-end';

export function createQueryClient() {
  // Spec 1 §8: not-logged-in or expired-token errors sign the user out; the protected
  // route guard then sends them to /login, and the page they were on is the return URL.
  // The login page says why (spec 1 §8 'Your session has expired' …).
  const onError = (err: unknown) => {
    if (!isSessionError(err)) return;
    void endSession(queryClient, sessionEndReason(err));
  };
  // Spec 3 §4: while the API is flagged offline queries wait, and on recovery the ones that
  // waited or failed are sent again (lib/connectivity/data-layer.ts).
  followConnectivity(connectivity, window);
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
      // A change is never held back while offline and sent later: it fails at once and the
      // user is told (the error toast), and tries again when the API is back.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  return queryClient;
}
