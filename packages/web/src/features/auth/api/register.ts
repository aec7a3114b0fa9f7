import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { getSession, sessionQueryKey } from './get-session';

export interface RegisterInput {
  email: string;
  password: string;
}

/** POST /user/register {email, password} answers with a session token. */
export async function register(input: RegisterInput) {
  const token = await sdk.auth.register({ email: input.email, password: input.password });
  await sdk.auth.loginWithToken(token);
  return getSession();
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (session) => queryClient.setQueryData(sessionQueryKey, session),
  });
}
