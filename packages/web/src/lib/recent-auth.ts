import { SESSION_VALIDITY_FROM_AUTH_TIME_MS } from '@flotilla/model';

/** Re-verify this long before the server's 20-minute window ends, so a slow form does not miss it. */
export const REVERIFY_MARGIN_MS = 60_000;

/** The `authTime` claim (ms) of a session token; null for an API key or a malformed token. */
export function authTimeOf(token: string | null | undefined): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { authTime?: unknown };
    return typeof claims.authTime === 'number' ? claims.authTime : null;
  } catch {
    return null;
  }
}

/** Spec 1 §4, §9: sensitive actions need a password check within the last 20 minutes. */
export function needsReverification(token: string | null | undefined, now: number = Date.now()): boolean {
  const authTime = authTimeOf(token);
  return authTime === null || now - authTime > SESSION_VALIDITY_FROM_AUTH_TIME_MS - REVERIFY_MARGIN_MS;
}
