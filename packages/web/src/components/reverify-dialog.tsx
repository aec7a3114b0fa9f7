import { ThemeProvider, useTheme, type Theme } from '@mui/material/styles';
import { useCallback } from 'react';
import { createRoot } from 'react-dom/client';
import { sdk } from '../lib/sdk';
import { needsReverification } from '../lib/recent-auth';

/** The user closed the password dialog: the sensitive action must not go ahead. */
export class ReverificationCancelled extends Error {
  constructor() {
    super('Identity verification was cancelled');
    this.name = 'ReverificationCancelled';
  }
}

export const isReverificationCancelled = (err: unknown): err is ReverificationCancelled => err instanceof ReverificationCancelled;

/** The server's answer to a sensitive action whose authTime is too old (spec 1 §4 login-required error). */
export function isRecentAuthError(err: unknown): boolean {
  const e = err as { statusCode?: unknown; body?: unknown } | null;
  return e?.statusCode === 401 && e.body === 'You have to log in';
}

let open: Promise<void> | null = null;

/** Shows the password dialog in its own root (callers need not render anything); one at a time. */
function askForPassword(theme: Theme): Promise<void> {
  // The form loads when first asked for: pages that may ask (preferences) stay light.
  open ??= import('./reverify-form').then(
    ({ ReverifyForm }) =>
      new Promise<void>((resolve, reject) => {
        const host = document.createElement('div');
        document.body.appendChild(host);
        const root = createRoot(host);
        const finish = (err?: Error) => {
          open = null;
          // Unmount after the event that closed it has been handled.
          setTimeout(() => {
            root.unmount();
            host.remove();
          });
          if (err) reject(err);
          else resolve();
        };
        root.render(
          <ThemeProvider theme={theme}>
            <ReverifyForm onVerified={() => finish()} onCancel={() => finish(new ReverificationCancelled())} />
          </ThemeProvider>,
        );
      }),
  );
  return open;
}

/**
 * Identity re-verification before a sensitive action (spec 1 §4, §9): `ensureRecentAuth()`
 * resolves at once when the session's authTime is recent (within 20 minutes, less a minute's
 * margin); otherwise it opens a password dialog, stores the fresh token through the SDK and
 * resolves, or rejects with ReverificationCancelled. `ensureRecentAuth({ force: true })`
 * asks regardless (after the server answered a login-required error).
 */
export function useRecentAuth(): (options?: { force?: boolean }) => Promise<void> {
  const theme = useTheme();
  return useCallback(
    async (options?: { force?: boolean }) => {
      const token = await sdk.auth.getToken().catch(() => null);
      if (!options?.force && !needsReverification(token)) return;
      await askForPassword(theme);
    },
    [theme],
  );
}

/**
 * Runs a sensitive call after `ensureRecentAuth()`; when the server still answers the
 * login-required error (the window closed meanwhile, spec 1 §4), asks again and retries once.
 */
export function useWithRecentAuth(): <T>(call: () => Promise<T>) => Promise<T> {
  const ensureRecentAuth = useRecentAuth();
  return useCallback(
    async <T,>(call: () => Promise<T>): Promise<T> => {
      await ensureRecentAuth();
      try {
        return await call();
      } catch (err) {
        if (!isRecentAuthError(err)) throw err;
        await ensureRecentAuth({ force: true });
        return call();
      }
    },
    [ensureRecentAuth],
  );
}
