import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { getSession, sessionQueryKey } from '../../../lib/get-session';

export interface LoginInput {
  /** Email or username: POST /login_ takes either in `username`. */
  username: string;
  password: string;
}

export async function login({ username, password }: LoginInput) {
  await sdk.auth.login({ email: username, password });
  return getSession();
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => queryClient.setQueryData(sessionQueryKey, session),
  });
}
