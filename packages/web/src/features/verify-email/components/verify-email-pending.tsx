import { Alert, Button, Stack, Typography } from '@mui/material';
import { VERIFICATION_REQUEST_DEBOUNCE_MS } from '@flotilla/model';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-status';
import { errorMessage } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { nextAfterVerification, useAccountState, type AccountState } from '../api/account-state';
import { useRequestVerificationEmail } from '../api/verify-email';
import { debounceLeading } from '../debounce';
import '../i18n';

/**
 * /user/verify-email/pending (spec 1 §2, §4): the address is not verified. "pending" (the
 * server requires verification: the guards keep the user here) or "missing" (optional: the
 * user may go on). Resend is debounced 300 ms; the server rate-limits it too.
 */
export function VerifyEmailPending({ userId, onSignOut }: { userId: number; onSignOut: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const state = useAccountState(userId);
  const resend = useRequestVerificationEmail();

  const email = state.data?.email ?? '';
  // One debouncer for the page's life; it calls the latest render's request.
  const latest = useRef<() => void>(() => undefined);
  useEffect(() => {
    latest.current = () =>
      resend.mutate(undefined, {
        onSuccess: () => notify.success(t('verifyEmail.resent', { email })),
        onError: notify.error,
      });
  });
  const [send] = useState(() => debounceLeading(() => latest.current(), VERIFICATION_REQUEST_DEBOUNCE_MS));

  const goOn = async () => {
    const result = await state.refetch();
    const fresh: AccountState | undefined = result.data;
    if (!fresh) throw result.error;
    if (fresh.verification === 'pending') {
      notify.error(t('verifyEmail.not_verified_yet'));
      return;
    }
    void navigate(nextAfterVerification(fresh), { replace: true });
  };

  if (state.isPending) return <FullPageSpinner />;
  if (state.isError) return <Alert severity="error">{errorMessage(state.error, t)}</Alert>;
  const data = state.data;
  if (data.verification === 'verified') {
    return (
      <Stack spacing={2}>
        <Alert severity="success">{t('verifyEmail.progress_done')}</Alert>
        <Button variant="contained" onClick={() => void navigate(nextAfterVerification(data), { replace: true })}>
          {t('verifyEmail.skip')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack spacing={2} data-verification-state={data.verification}>
      <Typography>{t('verifyEmail.pending_text', { email: data.email })}</Typography>
      <Typography color="text.secondary">{t(data.verification === 'pending' ? 'verifyEmail.must_verify_text' : 'verifyEmail.missing_text')}</Typography>
      <Button variant="outlined" onClick={() => send()} loading={resend.isPending}>
        {t('verifyEmail.resend')}
      </Button>
      <Button variant="contained" onClick={() => void goOn().catch(notify.error)}>
        {data.verification === 'pending' ? t('verifyEmail.continue') : t('verifyEmail.skip')}
      </Button>
      <Button variant="text" onClick={onSignOut}>
        {t('verifyEmail.sign_out')}
      </Button>
    </Stack>
  );
}
