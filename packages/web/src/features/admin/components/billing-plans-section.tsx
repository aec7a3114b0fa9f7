import { formatCents } from '@flotilla/model';
import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { FullPageError } from '../../../components/full-page-status';
import { useBillingPlans, type AdminBillingPlan } from '../api/billing-plans';
import '../i18n-billing';
import { EditBillingPlanDialog } from './edit-billing-plan-dialog';

/** /admin "Billing plans" (issue 18): the catalogue's plans; platform administrators edit titles, prices, self-serve and dates. */
export function BillingPlansSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const plans = useBillingPlans();
  const [editing, setEditing] = useState<AdminBillingPlan | null>(null);
  const columns: Column<AdminBillingPlan>[] = [
    { key: 'code', header: t('admin.billing_plans.code'), render: (p) => p.billing_code },
    { key: 'title', header: t('admin.billing_plans.plan'), render: (p) => p.title },
    { key: 'monthly', header: t('admin.billing_plans.monthly'), render: (p) => formatCents(p.monthly_price) },
    { key: 'annual', header: t('admin.billing_plans.annual'), render: (p) => formatCents(p.annual_price) },
    { key: 'offered', header: t('admin.billing_plans.offered'), render: (p) => (p.is_self_serve ? t('admin.billing_plans.offered_yes') : t('admin.billing_plans.offered_no')) },
    ...(canEdit
      ? [
          {
            key: 'edit',
            header: '',
            render: (p: AdminBillingPlan) => (
              <Button size="small" onClick={() => setEditing(p)} aria-label={t('admin.billing_plans.edit_plan', { title: p.title })}>
                {t('common.edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('admin.billing_plans.description')}</Typography>
      {!canEdit && <Typography color="text.secondary">{t('admin.billing_plans.administrators_only')}</Typography>}
      {plans.isError ? (
        <FullPageError message={t('admin.billing_plans.load_failed')} onRetry={() => void plans.refetch()} />
      ) : plans.data?.length === 0 ? (
        <Typography color="text.secondary">{t('admin.billing_plans.empty')}</Typography>
      ) : (
        <DataTable label={t('admin.billing_plans.table')} columns={columns} rows={plans.data} getRowKey={(p) => p.id} loading={plans.isPending} />
      )}
      {editing && <EditBillingPlanDialog plan={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
