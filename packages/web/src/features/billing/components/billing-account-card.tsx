import { Box, Button, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBillingAccount } from '../api/billing-api';
import { BillingCard, CardStatus } from './billing-card';

const BillingAccountDialog = lazy(async () => ({ default: (await import('./billing-account-dialog')).BillingAccountDialog }));

/** Spec 3 §2 billing account: email and cc emails, with an edit dialog. */
export function BillingAccountCard({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const account = useBillingAccount(orgId);
  const [editing, setEditing] = useState(false);
  const data = account.data;
  return (
    <BillingCard
      title={t('billing.account.heading')}
      actions={account.isSuccess ? <Button onClick={() => setEditing(true)}>{t('common.edit')}</Button> : undefined}
    >
      {account.isError ? (
        <CardStatus error>{t('billing.errors.account')}</CardStatus>
      ) : account.isPending ? (
        <CardStatus>{t('billing.loading')}</CardStatus>
      ) : (
        <Box component="dl" sx={{ m: 0 }}>
          <Typography component="dt" variant="subtitle2">
            {t('billing.account.email')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, mb: 1 }} data-testid="billing-email">
            {data?.email || t('billing.account.none')}
          </Typography>
          <Typography component="dt" variant="subtitle2">
            {t('billing.account.cc_emails')}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {data?.cc_emails?.length ? data.cc_emails.join(', ') : t('billing.account.none')}
          </Typography>
        </Box>
      )}
      {editing && (
        <Suspense fallback={null}>
          <BillingAccountDialog orgId={orgId} email={data?.email ?? ''} ccEmails={data?.cc_emails ?? []} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </BillingCard>
  );
}
