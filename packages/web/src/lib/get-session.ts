import { queryOptions, useQuery } from '@tanstack/react-query';
import { bootstrapWithTimeout } from './connectivity/bootstrap';
import { sdk } from './sdk';

export interface SessionUser {
  id: number;
  actor: number;
  username: string;
  email: string | null;
}

export const sessionQueryKey = ['session'] as const;

/** A stored, unexpired token; reading it makes no request. */
async function hasUsableToken(): Promise<boolean> {
  try {
    await sdk.auth.getToken();
    return true;
  } catch {
    return false; // none stored, malformed or expired
  }
}

/**
 * "Signed in" is `sdk.auth.isLoggedIn()` (GET /actor/v1/whoami, which getUserInfo then
 * reuses). Without a usable token that call could only answer 401, so it is skipped.
 */
export async function getSession(): Promise<SessionUser | null> {
  if (!(await hasUsableToken()) || !(await sdk.auth.isLoggedIn())) return null;
  const user = await sdk.auth.getUserInfo();
  return { id: user.id, actor: user.actor, username: user.username, email: user.email };
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: sessionQueryKey,
    // The start-up bootstrap: it fails after 59 s without an answer, and the route guards
    // show the failure and try again 10 s later (spec 3 §4, app/platform/bootstrap-failure.tsx).
    queryFn: () => bootstrapWithTimeout(getSession),
    // The session changes only through login, logout and forced sign-out, which set it.
    staleTime: Infinity,
    retry: false,
    // Tried even while the API is flagged offline: its failure and retry are what the user sees.
    networkMode: 'always',
  });

export function useSession() {
  return useQuery(sessionQueryOptions());
}
