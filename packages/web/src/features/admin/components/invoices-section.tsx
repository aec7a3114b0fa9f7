import { Button, Chip, Stack, Typography } from '@mui/material';
import { formatCents, invoiceTone } from '@flotilla/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { DateText } from '../../../components/date-text';
import { FullPageError } from '../../../components/full-page-status';
import { ADMIN_INVOICES_PAGE_SIZE, useMarkInvoicePaid, useUnpaidInvoices, type AdminInvoice } from '../api/invoices';
import '../i18n-invoices';

const TONE_COLOR = { done: 'success', waiting: 'warning', danger: 'error' } as const;

/** /admin "Invoices" (issue 18): unpaid invoices of every organization; platform administrators mark them paid. */
export function InvoicesSection({ canMarkPaid }: { canMarkPaid: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const invoices = useUnpaidInvoices(page, canMarkPaid);
  const markPaid = useMarkInvoicePaid();
  const [confirming, setConfirming] = useState<AdminInvoice | null>(null);

  if (!canMarkPaid) return <Typography color="text.secondary">{t('admin.invoices.administrators_only')}</Typography>;

  const total = (i: AdminInvoice) => `${formatCents(Number(i.total_in_cents))} ${i.currency}`;
  const stateLabel = (i: AdminInvoice): string => {
    switch (i.state) {
      case 'past_due':
        return t('admin.invoices.state_past_due', { date: (i.due_on ?? '').slice(0, 10) });
      case 'open':
        return t('admin.invoices.state_open');
      case 'pending':
        return t('admin.invoices.state_pending');
      case 'processing':
        return t('admin.invoices.state_processing');
      case 'failed':
        return t('admin.invoices.state_failed');
      default:
        return i.state;
    }
  };
  const columns: Column<AdminInvoice>[] = [
    { key: 'number', header: t('admin.invoices.number'), render: (i) => i.invoice_number },
    { key: 'organization', header: t('admin.invoices.organization'), render: (i) => `${i.organization.name} (${i.organization.handle})` },
    { key: 'total', header: t('admin.invoices.total'), render: total },
    { key: 'due', header: t('admin.invoices.due'), render: (i) => (i.due_on ? <DateText value={i.due_on} /> : '—') },
    { key: 'state', header: t('admin.invoices.state'), render: (i) => <Chip size="small" variant="outlined" color={TONE_COLOR[invoiceTone(i.state)]} label={stateLabel(i)} /> },
    {
      key: 'actions',
      header: t('admin.invoices.actions'),
      render: (i) => (
        <Button size="small" onClick={() => setConfirming(i)} aria-label={t('admin.invoices.mark_paid_label', { number: i.invoice_number })}>
          {t('admin.invoices.mark_paid')}
        </Button>
      ),
    },
  ];
  const count = invoices.data?.total ?? 0;
  const from = page * ADMIN_INVOICES_PAGE_SIZE;
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('admin.invoices.description')}</Typography>
      {invoices.isError ? (
        <FullPageError message={t('admin.invoices.load_failed')} onRetry={() => void invoices.refetch()} />
      ) : invoices.data?.invoices.length === 0 && page === 0 ? (
        <Typography color="text.secondary">{t('admin.invoices.empty')}</Typography>
      ) : (
        <>
          <DataTable label={t('admin.invoices.table')} columns={columns} rows={invoices.data?.invoices} getRowKey={(i) => i.invoice_number} loading={invoices.isPending} />
          {count > ADMIN_INVOICES_PAGE_SIZE && (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Button disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                {t('admin.invoices.previous_page')}
              </Button>
              <Typography>{t('admin.invoices.page', { from: from + 1, to: Math.min(count, from + ADMIN_INVOICES_PAGE_SIZE), total: count })}</Typography>
              <Button disabled={from + ADMIN_INVOICES_PAGE_SIZE >= count} onClick={() => setPage((p) => p + 1)}>
                {t('admin.invoices.next_page')}
              </Button>
            </Stack>
          )}
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('admin.invoices.confirm_title', { number: confirming.invoice_number })}
          body={t('admin.invoices.confirm_body', { total: total(confirming), organization: confirming.organization.name })}
          confirmLabel={t('admin.invoices.mark_paid')}
          onConfirm={() => markPaid.mutateAsync(confirming.invoice_number)}
          success={t('admin.invoices.marked_paid', { number: confirming.invoice_number })}
          onClose={() => setConfirming(null)}
        />
      )}
    </Stack>
  );
}
