import { useSnackbar } from 'notistack';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../components/full-page-status';
import { scheduleBootstrapRetry } from '../../lib/connectivity/bootstrap';
import { errorMessage } from '../../lib/errors';
import './i18n';

/**
 * A start-up (session bootstrap) that failed (spec 3 §4 "Startup failure: an error toast, the
 * spinner shows failure, and a retry follows after 10 s"): the toast once per failure, the
 * full-page failure with a Retry button, and the retry on its own 10 s later.
 */
export function BootstrapFailure({ error, failedAt, onRetry }: { error: unknown; failedAt: number; onRetry: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const reason = errorMessage(error, t);
  const retry = useRef(onRetry);
  retry.current = onRetry;

  // Once per failure (`failedAt`): the toast, and the retry 10 s later.
  useEffect(() => {
    enqueueSnackbar(t('platform.bootstrap_failed', { reason }), { variant: 'error', key: `bootstrap-${failedAt}`, preventDuplicate: true });
    return scheduleBootstrapRetry(() => retry.current());
  }, [enqueueSnackbar, failedAt, reason, t]);

  return <FullPageError message={`${t('platform.bootstrap_failed', { reason })} ${t('platform.bootstrap_retrying')}`} onRetry={onRetry} />;
}
