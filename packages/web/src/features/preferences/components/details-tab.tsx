import { Button, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/data-table';
import { useNotify, useRunMutation } from '../../../lib/notify';
import { useSession } from '../../../lib/get-session';
import { useSocialProviders } from '../../../lib/dashboard-config';
import { SOCIAL_ERROR_PARAM } from '../../../lib/social-providers';
import { useLinkSocialAccount, useSocialAccounts, useUnlinkSocialAccount, type SocialAccount } from '../api/account';
import { EnterpriseSsoSection } from './enterprise-sso-section';

// The unlink confirmation loads when first opened (the first-page budget).
const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));

/** Spec 1 §2 account details: username (copyable), linked social accounts, then the security and danger-zone sections. */
export function DetailsTab({ security, deleteAccount }: { security: ReactNode; deleteAccount: ReactNode }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { data: user } = useSession();
  const social = useSocialAccounts(user?.id);
  const providers = useSocialProviders();
  const link = useLinkSocialAccount();
  const unlink = useUnlinkSocialAccount(user?.id);
  const run = useRunMutation();
  const [unlinking, setUnlinking] = useState<SocialAccount | null>(null);
  const [params] = useSearchParams();
  const socialError = params.get(SOCIAL_ERROR_PARAM);
  const providerName = (id: string) => providers.data?.find((p) => p.id === id)?.name ?? id;
  const linkable = (providers.data ?? []).filter((p) => !social.data?.some((a) => a.provider === p.id));
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
        {/* Plain text, not an Alert: the page is on the first-page budget's edge. */}
        {socialError && (
          <Typography role="alert" color="error" data-testid="social-link-error">
            {socialError.slice(0, 500)}
          </Typography>
        )}
        {social.data?.length === 0 ? (
          <Typography color="text.secondary">
            {t(linkable.length > 0 ? 'preferences.details.social_accounts_empty_linkable' : 'preferences.details.social_accounts_empty')}
          </Typography>
        ) : (
          <DataTable
            label={t('preferences.details.social_accounts')}
            columns={[
              { key: 'display_name', header: t('preferences.details.col_display_name'), render: (a) => a.display_name ?? '' },
              { key: 'provider', header: t('preferences.details.col_provider'), render: (a) => providerName(a.provider) },
              {
                key: 'actions',
                header: t('preferences.details.col_actions'),
                render: (a) => (
                  <Button size="small" color="error" aria-label={t('preferences.details.unlink_named', { provider: providerName(a.provider) })} onClick={() => setUnlinking(a)}>
                    {t('preferences.details.unlink')}
                  </Button>
                ),
              },
            ]}
            rows={social.data}
            getRowKey={(a) => a.id}
            loading={social.isPending}
          />
        )}
        {linkable.length > 0 && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            {linkable.map((p) => (
              <Button key={p.id} variant="outlined" loading={link.isPending && link.variables === p.id} onClick={() => void run(() => link.mutateAsync(p.id))}>
                {t('preferences.details.link', { provider: p.name })}
              </Button>
            ))}
          </Stack>
        )}
        {unlinking && (
          <Suspense fallback={null}>
            <ConfirmDialog
            title={t('preferences.details.unlink_title', { provider: providerName(unlinking.provider) })}
            body={t('preferences.details.unlink_body', { provider: providerName(unlinking.provider), name: unlinking.display_name ?? '' })}
            confirmLabel={t('preferences.details.unlink')}
            onConfirm={() => unlink.mutateAsync(unlinking.id)}
            success={t('preferences.details.unlinked', { provider: providerName(unlinking.provider) })}
            onClose={() => setUnlinking(null)}
            />
          </Suspense>
        )}
      </Stack>
      {security}
      <EnterpriseSsoSection />
      {deleteAccount}
    </Stack>
  );
}
