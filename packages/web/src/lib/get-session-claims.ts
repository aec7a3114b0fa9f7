import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from './sdk';
import { decodeSessionClaims, type SessionClaims } from './session-claims';

export async function getSessionClaims(): Promise<SessionClaims | null> {
  try {
    return decodeSessionClaims(await sdk.auth.getToken());
  } catch {
    return null; // no usable token
  }
}

// Keyed by the signed-in user, so login-as (a new user) reads the new token; logout drops it.
export const sessionClaimsQueryOptions = (userId: number | undefined) =>
  queryOptions({
    queryKey: ['session-claims', userId ?? null] as const,
    queryFn: getSessionClaims,
    enabled: userId !== undefined,
    staleTime: Infinity,
  });

export function useSessionClaims(userId: number | undefined) {
  return useQuery(sessionClaimsQueryOptions(userId)).data ?? null;
}
