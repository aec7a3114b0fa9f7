import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { authorizeOAuthApplication, oauthRedirectUrl, useOAuthApplication } from '../api/oauth';
import '../i18n';
import { paths } from '../../../lib/paths';

/**
 * /login/oauth/{clientId}?state=… (spec 1 §2, §7): shows the application and asks for
 * consent; on consent POST /oauth/authorize answers a code and the browser goes to the
 * application's registered redirect_uri with `code` and `state`. Denying sends
 * `error=access_denied` (RFC 6749 §4.1.2.1) with the state.
 */
export function OAuthConsentPanel({ clientId, state }: { clientId: string; state: string | null }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const application = useOAuthApplication(clientId);
  const [busy, setBusy] = useState(false);

  if (application.isPending) return <Typography variant="body2">…</Typography>;
  if (application.isError) return <Alert severity="error">{errorMessage(application.error, t)}</Alert>;
  const app = application.data;
  if (!app) {
    return (
      <Stack spacing={2}>
        <Alert severity="error">{t('account.oauth.not_found')}</Alert>
        <Button component={RouterLink} to={paths.home()}>
          {t('common.cancel')}
        </Button>
      </Stack>
    );
  }

  const consent = async () => {
    setBusy(true);
    try {
      const { code, redirect_uri } = await authorizeOAuthApplication(app.client_id);
      window.location.assign(oauthRedirectUrl(redirect_uri, code, state));
    } catch (err) {
      notify.error(err);
      setBusy(false);
    }
  };
  const deny = () => {
    const url = new URL(app.redirect_uri);
    url.searchParams.set('error', 'access_denied');
    if (state !== null) url.searchParams.set('state', state);
    window.location.assign(url.href);
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h2">
        {t('account.oauth.title', { name: app.name })}
      </Typography>
      {app.description && <Typography variant="body2">{app.description}</Typography>}
      <Typography variant="body2">{t('account.oauth.body', { name: app.name })}</Typography>
      {app.oauth_application_authorization.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('account.oauth.authorized_before')}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary">
        {t('account.oauth.redirect_note', { uri: new URL(app.redirect_uri).origin })}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button variant="contained" loading={busy} onClick={() => void consent()}>
          {t('account.oauth.authorize')}
        </Button>
        <Button onClick={deny} disabled={busy}>
          {t('account.oauth.deny')}
        </Button>
      </Stack>
    </Stack>
  );
}
