import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { getSession, sessionQueryKey } from '../../../lib/get-session';

export interface RegisterInput {
  email: string;
  password: string;
  /** Spec 1 §3: the newsletter flag (stored as has_disabled_newsletter). */
  hasDisabledNewsletter?: boolean;
  /** Spec 1 §5: the captcha response (a dummy when the server has no captcha configured). */
  captchaResponse?: string;
}

/**
 * The sign-up was answered but its token opens no session: the address already has an
 * account (the server answers those like any sign-up and mails the owner instead).
 */
export class SignUpNotSignedIn extends Error {
  constructor() {
    super('signup.check_email');
    this.name = 'SignUpNotSignedIn';
  }
}

/** POST /user/register {email, password, has_disabled_newsletter, g-recaptcha-response} answers with a session token. */
export async function register(input: RegisterInput) {
  const credentials = {
    email: input.email,
    password: input.password,
    has_disabled_newsletter: input.hasDisabledNewsletter ?? false,
    ...(input.captchaResponse !== undefined ? { 'g-recaptcha-response': input.captchaResponse } : {}),
  };
  const token = await sdk.auth.register(credentials);
  await sdk.auth.loginWithToken(token);
  const session = await getSession();
  if (!session) {
    await sdk.auth.logout();
    throw new SignUpNotSignedIn();
  }
  return session;
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (session) => queryClient.setQueryData(sessionQueryKey, session),
  });
}
