import { TOKEN_REFRESH_INTERVAL_MS } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** GET /user/v1/refresh-token; the SDK stores the returned token. */
export async function refreshToken() {
  await sdk.request.refreshToken({ baseUrl: window.location.origin });
  return Date.now();
}

/** Spec 1 §9: the session token is refreshed every hour while the dashboard is open. */
export function useTokenRefresh(enabled: boolean) {
  useQuery({
    queryKey: ['token-refresh'],
    queryFn: refreshToken,
    enabled,
    refetchInterval: TOKEN_REFRESH_INTERVAL_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    // The first run would refresh a token minted a moment ago.
    initialData: () => Date.now(),
    staleTime: TOKEN_REFRESH_INTERVAL_MS,
  });
}
