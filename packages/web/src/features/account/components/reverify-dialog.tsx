import { DialogContentText } from '@mui/material';
import { ThemeProvider, useTheme, type Theme } from '@mui/material/styles';
import { useCallback } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { sdk } from '../../../lib/sdk';
import { reverify } from '../api/session';
import '../i18n';
import { needsReverification } from '../recent-auth';

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
  open ??= new Promise<void>((resolve, reject) => {
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
        <ReverifyDialog onVerified={() => finish()} onCancel={() => finish(new ReverificationCancelled())} />
      </ThemeProvider>,
    );
  });
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

function ReverifyDialog({ onVerified, onCancel }: { onVerified: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ password: z.string().check(z.minLength(1, t('account.reverify.password_required'))) }),
    defaultValues: { password: '' },
    submit: ({ password }) => reverify(password),
    onSuccess: onVerified,
    // A wrong password is said under the field.
    onError: (err) => {
      form.setError('password', { message: errorMessage(err, t) });
      return true;
    },
  });

  return (
    <FormDialog form={dialog} title={t('account.reverify.title')} submitLabel={t('account.reverify.verify')} maxWidth="xs" onClose={onCancel}>
      <DialogContentText>{t('account.reverify.body')}</DialogContentText>
      <TextInput
        {...form.register('password')}
        id="reverify-password"
        type="password"
        label={t('account.reverify.password')}
        autoComplete="current-password"
        autoFocus
        error={dialog.fieldError('password')}
      />
    </FormDialog>
  );
}
