import { sdk } from '../../../lib/sdk';

/** What GET /auth/{provider}/callback answers: a session token, or the link to the signed-in user done. */
export type SocialCallbackResult = { action: 'signed-in'; token: string } | { action: 'linked'; provider: string };

/**
 * Spec 1 §7: `GET /auth/{provider}/callback` with the provider's query string, with
 * credentials (the same-origin fetch carries the httpOnly cookie that binds the flow to this
 * browser). A failure rejects with balena-request's error, which carries the status.
 */
export async function finishSocialCallback(provider: string, search: string): Promise<SocialCallbackResult> {
  const { body } = await sdk.request.send<SocialCallbackResult>({
    method: 'GET',
    baseUrl: window.location.origin,
    url: `/auth/${encodeURIComponent(provider)}/callback${search}`,
    sendToken: false,
  });
  return body;
}
