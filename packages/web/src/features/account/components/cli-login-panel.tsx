import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useNotify } from '../../../lib/notify';
import { sdk } from '../../../lib/sdk';
import '../i18n';
import { paths } from '../../../lib/paths';

/**
 * POSTs the session token to the CLI's local callback as the form field `token`, the way
 * `balena login --web` expects it (a top-level form submission: the CLI answers with its own
 * success page). The dashboard's CSP allows forms to loopback hosts for this.
 */
function postTokenToCallback(callback: URL, token: string) {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = callback.href;
  form.style.display = 'none';
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'token';
  input.value = token;
  form.appendChild(input);
  document.body.appendChild(form);
  form.submit();
}

/** /login/cli/{callback} (spec 1 §2): the signed-in user hands their session to the CLI. */
export function CliLoginPanel({ callback }: { callback: URL }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const [sending, setSending] = useState(false);
  const authorize = async () => {
    setSending(true);
    try {
      postTokenToCallback(callback, await sdk.auth.getToken());
    } catch (err) {
      notify.error(err);
      setSending(false);
    }
  };
  return (
    <Stack spacing={2}>
      <Typography variant="body2">{t('account.cli.body', { host: callback.host })}</Typography>
      {sending && <Typography variant="body2">{t('account.cli.sending')}</Typography>}
      <Stack direction="row" spacing={1}>
        <Button variant="contained" loading={sending} onClick={() => void authorize()}>
          {t('account.cli.authorize')}
        </Button>
        <Button onClick={() => void navigate(paths.home(), { replace: true })} disabled={sending}>
          {t('common.cancel')}
        </Button>
      </Stack>
    </Stack>
  );
}
