import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getSession, sessionQueryKey } from '../../../lib/get-session';
import { sdk } from '../../../lib/sdk';

export { SAML_ERROR_PARAM } from '../components/saml-error';

/** Where the browser is sent to start a SAML sign-in: the server answers a redirect to the provider. */
export const samlStartUrl = (ssoIdentifier: string) => `${window.location.origin}/auth/saml/${encodeURIComponent(ssoIdentifier)}`;

/**
 * Whether the server knows the SSO identifier (spec 1 §7 "GET /auth/saml/{ssoIdentifier}
 * (manual redirect)"): a redirect answer (opaque to a manual-redirect fetch) means it does; an
 * unknown identifier is a 4xx. A plain fetch, because the SDK follows redirects, and this one
 * leaves our origin (which the CSP's connect-src would refuse); the browser then navigates.
 */
export async function samlIdentifierKnown(ssoIdentifier: string): Promise<boolean> {
  const res = await fetch(samlStartUrl(ssoIdentifier), { redirect: 'manual', credentials: 'omit', cache: 'no-store' });
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) return true;
  if (res.status >= 400 && res.status < 500) return false;
  throw new Error(`HTTP ${res.status}`);
}

/** POST /auth/saml/finalize {code, jwt}: the session token of the SAML sign-in (text). */
export async function finalizeSaml(code: string, jwt?: string): Promise<string> {
  const { body } = await sdk.request.send<string>({
    method: 'POST',
    baseUrl: window.location.origin,
    url: '/auth/saml/finalize',
    body: jwt ? { code, jwt } : { code },
    sendToken: false,
  });
  return body;
}

/** POST /login_ without touching the dashboard's session: the token of the account to merge. */
export async function passwordToken(username: string, password: string): Promise<string> {
  const { body } = await sdk.request.send<string>({
    method: 'POST',
    baseUrl: window.location.origin,
    url: '/login_',
    body: { username, password },
    sendToken: false,
  });
  return body;
}

/** Makes a token the dashboard's session (the guards then go on: home, or the second factor). */
export function useAdoptToken() {
  const queryClient = useQueryClient();
  return useCallback(
    async (token: string) => {
      await sdk.auth.loginWithToken(token);
      queryClient.setQueryData(sessionQueryKey, await getSession());
    },
    [queryClient],
  );
}
