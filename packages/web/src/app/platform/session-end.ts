import type { QueryClient } from '@tanstack/react-query';
import { clearSession } from '../../features/auth/api/logout';
import { rememberReturnUrl } from '../../features/auth/return-url';
import { SIGNED_OUT_REASON_KEY } from '../../lib/errors';

/**
 * Signs this tab out because its session ended elsewhere or on the server (spec 1 §8): the
 * login page says why (`reason`, once), and the page the user was on is the return URL.
 */
export function endSession(queryClient: QueryClient, reason: string): Promise<void> {
  // The first reason stands: once the token is cleared, requests still in flight fail with
  // the generic 'You have to log in', which must not hide why the session really ended.
  if (sessionStorage.getItem(SIGNED_OUT_REASON_KEY) === null) sessionStorage.setItem(SIGNED_OUT_REASON_KEY, reason);
  rememberReturnUrl(window.location.pathname + window.location.search + window.location.hash);
  return clearSession(queryClient);
}
