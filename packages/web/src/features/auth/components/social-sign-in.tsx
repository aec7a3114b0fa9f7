import { Alert, Button, Divider, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSocialProviders } from '../../../lib/dashboard-config';
import { SOCIAL_ERROR_PARAM, socialSignInUrl } from '../../../lib/social-providers';
import '../social-i18n';

/** Why a social sign-in failed (the callback page or the server put it in the query), shown on /login. */
export function SocialSignInError() {
  const [params] = useSearchParams();
  const error = params.get(SOCIAL_ERROR_PARAM);
  if (!error) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="social-sign-in-error">
      {error.slice(0, 500)}
    </Alert>
  );
}

/**
 * One button per configured provider (issue 20): a plain link, so the browser navigates to the
 * API host's /auth/{provider}, which sends it on to the provider. Nothing when none is configured.
 */
export function SocialSignInButtons() {
  const { t } = useTranslation();
  const providers = useSocialProviders();
  if (!providers.data?.length) return null;
  return (
    <Stack spacing={1} sx={{ mt: 2 }} component="nav" aria-label={t('social.providers_label')}>
      <Divider>{t('social.or')}</Divider>
      {providers.data.map((p) => (
        <Button key={p.id} variant="outlined" size="large" href={socialSignInUrl(p.id)}>
          {t('social.sign_in_with', { name: p.name })}
        </Button>
      ))}
    </Stack>
  );
}
