import type { QueryClient } from '@tanstack/react-query';
import i18next from '../../lib/i18n';
import { connectivity } from '../../lib/connectivity';
import { ServerSessionCheck, SessionWatch } from '../../lib/connectivity/session-watch';
import { isSessionError, sessionEndReason } from '../../lib/errors';
import { sdk } from '../../lib/sdk';
import { sessionQueryKey, type SessionUser } from '../../lib/get-session';
import { endSession } from './session-end';
import './i18n';

/** Where balena-sdk keeps the session token in a browser (balena-auth's `token` key). */
const TOKEN_STORAGE_KEY = 'balena-token';

/**
 * The session check (spec 3 §9 "Session check interval is 1 s"): every second, and at once
 * when another tab writes the token, this tab compares the stored token with its own session.
 * Signed out elsewhere or expired: this tab signs out. Another user signed in: the page reloads
 * as that user. Signed in elsewhere while this tab shows the login page: the session is read
 * again. None of this asks the server. A session revoked on the server (password changed,
 * other sessions logged out) ends at the next request's 401, and a visible tab asks at least
 * every 15 s (`ServerSessionCheck`, GET /actor/v1/whoami). Returns the stop.
 */
export function startSessionWatch(queryClient: QueryClient): () => void {
  const signedInUser = () => queryClient.getQueryData<SessionUser | null>(sessionQueryKey)?.id ?? null;
  const watch = new SessionWatch({
    readToken: () => localStorage.getItem(TOKEN_STORAGE_KEY),
    signedInUser,
    onChange: (change) => {
      if (change.kind === 'signed-out') void endSession(queryClient, i18next.t('platform.signed_out_elsewhere'));
      else if (change.kind === 'expired') void endSession(queryClient, i18next.t('errors.token_expired'));
      else if (change.kind === 'user-changed') window.location.reload();
      else void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
  watch.start();
  const server = new ServerSessionCheck({
    active: () => signedInUser() !== null && document.visibilityState === 'visible' && !connectivity.getState().offline,
    verify: () => sdk.request.send({ method: 'GET', url: '/actor/v1/whoami', baseUrl: window.location.origin }),
    isSessionError,
    onEnded: (err) => void endSession(queryClient, sessionEndReason(err)),
  });
  server.start();
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY) watch.check(true);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    watch.stop();
    server.stop();
    window.removeEventListener('storage', onStorage);
  };
}
