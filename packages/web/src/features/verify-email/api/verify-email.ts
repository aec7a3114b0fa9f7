import { useMutation } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** `POST /user/v1/verify-email {verificationToken, email}` (balena-sdk auth.verifyEmail); answers a session token. */
export async function verifyEmail(input: { token: string; email: string }): Promise<string> {
  return sdk.auth.verifyEmail({ token: input.token, email: input.email });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}

/** Another verification mail (balena-sdk auth.requestVerificationEmail; the server rate-limits it). */
export async function requestVerificationEmail(): Promise<void> {
  await sdk.auth.requestVerificationEmail();
}

export function useRequestVerificationEmail() {
  return useMutation({ mutationFn: requestVerificationEmail });
}
