import { useMutation } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

const baseUrl = () => window.location.origin;

/** POST /user/v1/logout-others: every other session ends; this one continues with the fresh token answered. */
export async function logoutOtherSessions(): Promise<void> {
  const res = await sdk.request.send<string>({ method: 'POST', url: '/user/v1/logout-others', baseUrl: baseUrl() });
  await sdk.auth.loginWithToken(String(res.body).trim());
}

export function useLogoutOtherSessions() {
  return useMutation({ mutationFn: logoutOtherSessions });
}
