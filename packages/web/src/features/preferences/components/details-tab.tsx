import { Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useNotify } from '../../../lib/notify';
import { useSession } from '../../../lib/get-session';
import { useSocialAccounts } from '../api/account';
import { EnterpriseSsoSection } from './enterprise-sso-section';

/** Spec 1 §2 account details: username (copyable), linked social accounts, then the security and danger-zone sections. */
export function DetailsTab({ security, deleteAccount }: { security: ReactNode; deleteAccount: ReactNode }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { data: user } = useSession();
  const social = useSocialAccounts(user?.id);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(user?.username ?? '');
      notify.success(t('preferences.details.copied'));
    } catch {
      notify.error(t('preferences.details.copy_failed'));
    }
  };

  return (
    <Stack spacing={4}>
      <Stack component="section" spacing={1} aria-label={t('preferences.details.username')}>
        <Typography variant="h6" component="h2">
          {t('preferences.details.username')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography data-testid="preferences-username" sx={{ fontFamily: 'monospace' }}>
            {user?.username}
          </Typography>
          <Button size="small" onClick={() => void copy()} aria-label={t('preferences.details.copy_username')}>
            {t('common.copy')}
          </Button>
        </Stack>
      </Stack>
      <Stack component="section" spacing={1} aria-label={t('preferences.details.social_accounts')}>
        <Typography variant="h6" component="h2">
          {t('preferences.details.social_accounts')}
        </Typography>
        {social.data?.length === 0 ? (
          <Typography color="text.secondary">{t('preferences.details.social_accounts_empty')}</Typography>
        ) : (
          <DataTable
            label={t('preferences.details.social_accounts')}
            columns={[
              { key: 'display_name', header: t('preferences.details.col_display_name'), render: (a) => a.display_name ?? '' },
              { key: 'provider', header: t('preferences.details.col_provider'), render: (a) => a.provider },
            ]}
            rows={social.data}
            getRowKey={(a) => a.id}
            loading={social.isPending}
          />
        )}
      </Stack>
      {security}
      <EnterpriseSsoSection />
      {deleteAccount}
    </Stack>
  );
}
