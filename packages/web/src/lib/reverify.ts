import { sdk } from './sdk';

/** POST /auth/v1/reverify {password}: a fresh session token (text) with a new authTime, stored by the SDK. */
export async function reverify(password: string): Promise<void> {
  const res = await sdk.request.send<string>({ method: 'POST', url: '/auth/v1/reverify', baseUrl: window.location.origin, body: { password } });
  await sdk.auth.loginWithToken(String(res.body).trim());
}
