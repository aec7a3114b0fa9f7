import { useMutation } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/**
 * PATCH /login_ {username} (spec 1 §7, platform administrators only): the answer is a session
 * token for that user (text, like POST /login_), which replaces the administrator's own.
 */
export async function loginAs(username: string): Promise<void> {
  const res = await sdk.request.send<string>({ method: 'PATCH', url: '/login_', baseUrl: window.location.origin, body: { username } });
  await sdk.auth.loginWithToken(String(res.body).trim());
}

/** The caller (a route) swaps the cached session for the user's in `onSuccess`. */
export function useLoginAs() {
  return useMutation({ mutationFn: loginAs });
}
