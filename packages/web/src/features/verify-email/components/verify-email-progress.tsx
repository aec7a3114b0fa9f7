import { Alert, CircularProgress, Stack, Typography } from '@mui/material';
import type { VerificationProgress } from '@flotilla/model';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../lib/notify';
import { verifyEmail } from '../api/verify-email';
import '../i18n';

/**
 * /user/verify-email/{token}/{email} (spec 1 §2, §4): verifies once on arrival, showing the
 * progress pending → inprogress → done | failed. `onVerified` gets the session token the
 * server answers; `onFailed` runs after a failure (the route goes to the pending page).
 */
export function VerifyEmailProgress({
  token,
  email,
  onVerified,
  onFailed,
}: {
  token: string;
  email: string;
  onVerified: (sessionToken: string) => Promise<void>;
  onFailed: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [progress, setProgress] = useState<VerificationProgress>('pending');
  const started = useRef(false); // StrictMode runs effects twice; a token is single-use.

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token || !email) {
      setProgress('failed');
      notify.error(t('verifyEmail.missing_link'));
      onFailed();
      return;
    }
    setProgress('inprogress');
    verifyEmail({ token, email })
      .then(async (sessionToken) => {
        setProgress('done');
        await onVerified(sessionToken);
      })
      .catch((err: unknown) => {
        setProgress('failed');
        notify.error(err);
        onFailed();
      });
  }, [token, email, onVerified, onFailed, notify, t]);

  return (
    <Stack spacing={2} alignItems="flex-start" data-progress={progress}>
      {(progress === 'pending' || progress === 'inprogress') && (
        <Stack direction="row" spacing={2} alignItems="center">
          <CircularProgress size={24} />
          <Typography>{t(progress === 'pending' ? 'verifyEmail.progress_pending' : 'verifyEmail.progress_inprogress', { email })}</Typography>
        </Stack>
      )}
      {progress === 'done' && <Alert severity="success">{t('verifyEmail.progress_done')}</Alert>}
      {progress === 'failed' && <Alert severity="error">{t('verifyEmail.progress_failed')}</Alert>}
    </Stack>
  );
}
