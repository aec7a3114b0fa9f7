import { useSnackbar } from 'notistack';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, errorStatus } from './errors';
import { submitMutation, type MutationOutcome } from './submit-mutation';

/** The one toast helper: danger toasts for errors (spec 1 §8; a 429 has its banner instead), success toasts for results. */
export function useNotify() {
  const { enqueueSnackbar } = useSnackbar();
  const { t } = useTranslation();
  const error = useCallback(
    (err: unknown) => {
      // Spec 3 §8: a 429 is told by the throttling banner (app/platform), not an error toast.
      if (errorStatus(err) === 429) return;
      enqueueSnackbar(errorMessage(err, t), { variant: 'error' });
    },
    [enqueueSnackbar, t],
  );
  const success = useCallback((message: string) => enqueueSnackbar(message, { variant: 'success' }), [enqueueSnackbar]);
  return useMemo(() => ({ error, success }), [error, success]);
}

/**
 * `submitMutation` with this toast helper, for buttons and confirmations (no fields):
 * `run(() => x.mutateAsync(…), { success, onSuccess })`.
 */
export function useRunMutation() {
  const notify = useNotify();
  return useCallback(<TResult>(run: () => Promise<TResult>, outcome?: MutationOutcome<TResult>) => submitMutation(run, notify, outcome), [notify]);
}
