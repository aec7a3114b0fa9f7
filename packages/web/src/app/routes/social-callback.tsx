import { CircularProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { finishSocialCallback } from '../../features/auth/api/social';
import '../../features/auth/social-i18n';
import { errorMessage } from '../../lib/errors';
import { getSession, sessionQueryKey, useSession } from '../../lib/get-session';
import { useNotify } from '../../lib/notify';
import { paths } from '../../lib/paths';
import { sdk } from '../../lib/sdk';
import { useSocialProviders } from '../../lib/dashboard-config';
import { SOCIAL_ERROR_PARAM } from '../../lib/social-providers';

/**
 * /auth/{provider}/callback (spec 1 §2): where the provider sends the browser back. The page
 * calls the same URL on the API (§7) once — the state in it is single use — and then goes
 * to / signed in (the guards take a pending second factor to /login/two-factor), or, after a
 * link from preferences, back to the account details. A failure is a request error with its
 * status (§8), shown on /login (on the account details when signed in).
 */
export function SocialCallbackRoute() {
  const { t } = useTranslation();
  const { provider = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const session = useSession();
  const providers = useSocialProviders();
  const started = useRef(false);
  const ready = !session.isPending && !providers.isPending;

  useEffect(() => {
    if (!ready || started.current) return;
    started.current = true;
    const name = providers.data?.find((p) => p.id === provider)?.name ?? provider;
    const signedIn = Boolean(session.data);
    void (async () => {
      try {
        const result = await finishSocialCallback(provider, search);
        if (result.action === 'linked') {
          await queryClient.invalidateQueries({ queryKey: ['preferences', 'social-accounts'] });
          notify.success(t('social.linked', { provider: name }));
          void navigate(paths.preferences('details'), { replace: true });
          return;
        }
        await sdk.auth.loginWithToken(result.token);
        queryClient.setQueryData(sessionQueryKey, await getSession());
        void navigate('/', { replace: true });
      } catch (err) {
        const status = (err as { statusCode?: unknown }).statusCode;
        const message =
          typeof status === 'number'
            ? t('social.failed', { provider: name, status, message: errorMessage(err, t) })
            : t('social.failed_no_status', { provider: name, message: errorMessage(err, t) });
        const back = signedIn ? paths.preferences('details') : paths.login();
        void navigate(`${back}?${SOCIAL_ERROR_PARAM}=${encodeURIComponent(message)}`, { replace: true });
      }
    })();
  }, [ready, provider, search, session.data, providers.data, queryClient, navigate, notify, t]);

  if (!ready) return <FullPageSpinner />;
  return (
    <Stack sx={{ minHeight: '60vh', alignItems: 'center', justifyContent: 'center' }} spacing={2}>
      <CircularProgress aria-label={t('social.completing')} />
      <Typography role="status">{t('social.completing')}</Typography>
    </Stack>
  );
}
