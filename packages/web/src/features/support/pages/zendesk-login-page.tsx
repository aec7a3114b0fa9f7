import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { paths } from '../../../lib/paths';
import { sdk } from '../../../lib/sdk';
import '../i18n';
import { portalErrorKey } from '../portal-error';

/**
 * /zendesk-login?return_to= (spec 1 §2/§7/§8, issue 19): signs a staff member into the bridged
 * support portal with the JWT `GET /zendesk/v1/login` returns; without a bridged portal it
 * explains and links to /support and /admin.
 */
export function ZendeskLoginPage({ returnTo }: { returnTo: string | undefined }) {
  const { t } = useTranslation();
  const login = useQuery({
    queryKey: ['support', 'portal-login', returnTo],
    queryFn: async () =>
      (
        await sdk.request.send<{ url: string }>({
          method: 'GET',
          baseUrl: window.location.origin,
          url: `/zendesk/v1/login${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`,
        })
      ).body,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const url = login.data?.url;
  useEffect(() => {
    if (url) window.location.assign(url);
  }, [url]);

  if (login.isPending || url) {
    return (
      <>
        <PageHeader title={t('support.portal_title')} />
        <Typography role="status">{t('support.portal_signing_in')}</Typography>
        <FullPageSpinner />
      </>
    );
  }
  const key = portalErrorKey(login.error);
  return (
    <>
      <PageHeader title={t('support.portal_title')} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          {key === 'not_configured' ? <Typography>{t('support.portal_not_configured')}</Typography> : <Alert severity="error">{t(key)}</Alert>}
          <Stack direction="row" spacing={1}>
            <Button component={RouterLink} to={paths.support()} variant="outlined">
              {t('support.portal_open_support')}
            </Button>
            <Button component={RouterLink} to={paths.admin()}>
              {t('support.portal_open_admin')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </>
  );
}
