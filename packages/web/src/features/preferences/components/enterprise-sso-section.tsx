import { Link, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable } from '../../../components/data-table';
import { useInstallConfig } from '../../../lib/dashboard-config';
import { useSession } from '../../../lib/get-session';
import { useSamlAccounts } from '../api/saml-accounts';

/**
 * Spec 1 §2 account details: the optional enterprise SSO section (only where SAML is
 * supported): the user's SAML accounts (identity provider, remote id) and the way to the
 * identity-provider pages.
 */
export function EnterpriseSsoSection() {
  const { t } = useTranslation();
  const { saml } = useInstallConfig();
  const { data: user } = useSession();
  const accounts = useSamlAccounts(saml ? user?.id : undefined);
  if (!saml) return null;
  return (
    <Stack component="section" aria-label={t('preferences.enterprise_sso.title')} spacing={1}>
      <Typography variant="h6" component="h2">
        {t('preferences.enterprise_sso.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('preferences.enterprise_sso.explanation')}{' '}
        <Link component={RouterLink} to="/identity-provider">
          {t('preferences.enterprise_sso.manage')}
        </Link>
      </Typography>
      {accounts.isError ? (
        <Typography color="text.secondary">{t('preferences.enterprise_sso.load_failed')}</Typography>
      ) : accounts.data?.length === 0 ? (
        <Typography color="text.secondary">{t('preferences.enterprise_sso.empty')}</Typography>
      ) : (
        <DataTable
          label={t('preferences.enterprise_sso.accounts')}
          columns={[
            { key: 'remote_id', header: t('preferences.enterprise_sso.col_remote_id'), render: (a) => a.remote_id },
            { key: 'display_name', header: t('preferences.enterprise_sso.col_display_name'), render: (a) => a.display_name ?? '' },
            // Only the provider's organization administrators may read the provider itself.
            { key: 'provider', header: t('preferences.enterprise_sso.col_provider'), render: (a) => a.provider ?? t('preferences.enterprise_sso.provider_hidden') },
          ]}
          rows={accounts.data ?? []}
          getRowKey={(a) => a.id}
          loading={accounts.isPending}
        />
      )}
    </Stack>
  );
}
