import { useMutation } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

const baseUrl = () => window.location.origin;

/** POST /auth/v1/reverify {password}: a fresh session token (text) with a new authTime, stored by the SDK. */
export async function reverify(password: string): Promise<void> {
  const res = await sdk.request.send<string>({ method: 'POST', url: '/auth/v1/reverify', baseUrl: baseUrl(), body: { password } });
  await sdk.auth.loginWithToken(String(res.body).trim());
}

/** POST /user/v1/logout-others: every other session ends; this one continues with the fresh token answered. */
export async function logoutOtherSessions(): Promise<void> {
  const res = await sdk.request.send<string>({ method: 'POST', url: '/user/v1/logout-others', baseUrl: baseUrl() });
  await sdk.auth.loginWithToken(String(res.body).trim());
}

export function useLogoutOtherSessions() {
  return useMutation({ mutationFn: logoutOtherSessions });
}
