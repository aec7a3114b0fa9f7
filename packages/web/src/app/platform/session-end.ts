import type { QueryClient } from '@tanstack/react-query';
import { clearSession } from '../../features/auth/api/logout';
import { rememberReturnUrl } from '../../features/auth/return-url';
import { SIGNED_OUT_REASON_KEY } from '../../lib/errors';

/**
 * Signs this tab out because its session ended elsewhere or on the server (spec 1 §8): the
 * login page says why (`reason`, once), and the page the user was on is the return URL.
 */
export function endSession(queryClient: QueryClient, reason: string): Promise<void> {
  sessionStorage.setItem(SIGNED_OUT_REASON_KEY, reason);
  rememberReturnUrl(window.location.pathname + window.location.search + window.location.hash);
  return clearSession(queryClient);
}
