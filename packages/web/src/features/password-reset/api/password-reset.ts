import { useMutation } from '@tanstack/react-query';
import { rateLimitText } from '@flotilla/model';
import type { TFunction } from 'i18next';
import { errorMessage, errorStatus } from '../../../lib/errors';
import { sdk } from '../../../lib/sdk';

/** Spec §7 "POST reset-password/{email} with captcha response": the same answer for any address. */
export async function requestPasswordReset(input: { email: string; captchaResponse: string | null }): Promise<void> {
  await sdk.request.send({
    method: 'POST',
    baseUrl: window.location.origin,
    url: `/user/v1/reset-password/${encodeURIComponent(input.email)}`,
    body: input.captchaResponse ? { 'g-recaptcha-response': input.captchaResponse } : {},
    sendToken: false,
  });
}

/** Spec §7 "reset with resetCode and password". */
export async function resetPassword(input: { resetCode: string; password: string }): Promise<void> {
  await sdk.request.send({ method: 'POST', baseUrl: window.location.origin, url: '/user/v1/reset-password', body: input, sendToken: false });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}

/**
 * Spec 1 §8: a rate-limited request (429) says when it is available again (the answer's
 * next valid time, also in Retry-After); any other error shows the server's message.
 */
export function passwordResetErrorText(err: unknown, t: TFunction): string {
  if (errorStatus(err) === 429) {
    // balena-request keeps only the message of the body; Retry-After carries the same time.
    const headers = (err as { responseHeaders?: { get?: (name: string) => string | null } }).responseHeaders;
    const seconds = Number(headers?.get?.('retry-after'));
    return rateLimitText(Number.isFinite(seconds) && seconds > 0 ? new Date(Date.now() + seconds * 1000) : null);
  }
  return errorMessage(err, t);
}
