import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { paths } from '../../../lib/paths';

/** `GET /user/v1/account-state`: e-mail verification (spec 1 §4) and the profile step. */
export interface AccountState {
  email: string;
  is_verified: boolean;
  must_be_verified: boolean;
  verification: 'verified' | 'pending' | 'missing';
  has_been_sent_verification_email: boolean;
  profile_complete: boolean;
}

export async function getAccountState(): Promise<AccountState> {
  const { body } = await sdk.request.send<AccountState>({ method: 'GET', baseUrl: window.location.origin, url: '/user/v1/account-state' });
  return body;
}

export const accountStateQueryKey = ['account-state'] as const;

/** Keyed by the signed-in user; the guards read it once per sign-in. */
export const accountStateQueryOptions = (userId: number | undefined) =>
  queryOptions({
    queryKey: [...accountStateQueryKey, userId ?? null] as const,
    queryFn: getAccountState,
    enabled: userId !== undefined,
    staleTime: 60_000,
    retry: false,
  });

export function useAccountState(userId: number | undefined) {
  return useQuery(accountStateQueryOptions(userId));
}

/** Where a user goes once the address is dealt with: the profile step first, if not done. */
export function nextAfterVerification(state: Pick<AccountState, 'profile_complete'> | undefined): string {
  return state && !state.profile_complete ? paths.signupProfile() : paths.home();
}
