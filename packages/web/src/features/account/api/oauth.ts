import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { pineGet } from '../../../lib/pine';

export interface OAuthApplication {
  id: number;
  client_id: string;
  name: string;
  description: string | null;
  redirect_uri: string;
  oauth_application_authorization: { id: number }[];
}

/** GET oauth_application by client_id with the user's authorization (spec 1 §7). */
export async function getOAuthApplication(clientId: string): Promise<OAuthApplication | null> {
  // oauth_application is not a resource the SDK types.
  const rows = await pineGet('oauth_application', {
    $select: ['id', 'client_id', 'name', 'description', 'redirect_uri'],
    $filter: { client_id: clientId },
    $expand: { oauth_application_authorization: { $select: ['id'] } },
  });
  return rows[0] ?? null;
}

export function useOAuthApplication(clientId: string) {
  return useQuery({ queryKey: ['oauth-application', clientId], queryFn: () => getOAuthApplication(clientId) });
}

/** POST /oauth/authorize {client_id, response_type: 'code'} → a single-use code for the redirect. */
export async function authorizeOAuthApplication(clientId: string): Promise<{ code: string; redirect_uri: string }> {
  const res = await sdk.request.send<{ code: string; redirect_uri: string }>({
    method: 'POST',
    url: '/oauth/authorize',
    baseUrl: window.location.origin,
    body: { client_id: clientId, response_type: 'code' },
  });
  return res.body;
}

/** The browser goes to the application's redirect_uri with the code and the state it sent (spec 1 §7). */
export function oauthRedirectUrl(redirectUri: string, code: string, state: string | null): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  if (state !== null) url.searchParams.set('state', state);
  return url.href;
}
