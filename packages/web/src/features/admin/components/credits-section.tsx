import { bundleRefundProblem, formatCents, invoiceRefundProblem, type CreditAdjustment } from '@flotilla/model';
import { Button, Chip, Stack, Typography } from '@mui/material';
import type { InvoiceInfo } from 'balena-sdk';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { DateText } from '../../../components/date-text';
import { TextInput } from '../../../components/form-fields';
import { FullPageError } from '../../../components/full-page-status';
import {
  ADMIN_CREDITS_PAGE_SIZE,
  useCreditAdjustments,
  useCreditOrganizations,
  useOrganizationBundles,
  useOrganizationInvoices,
  useRefundBundle,
  useRefundInvoice,
  type AdminCreditBundle,
  type AdminCreditOrganization,
} from '../api/credits';
import '../i18n-credits';
import type { RefundTarget } from './refund-dialog';

// The dialogs load when opened.
const GrantCreditsDialog = lazy(async () => ({ default: (await import('./grant-credits-dialog')).GrantCreditsDialog }));
const RefundDialog = lazy(async () => ({ default: (await import('./refund-dialog')).RefundDialog }));

/**
 * /admin "Credits and refunds" (issue 18): find an organization, see its credit balance, bundles
 * and invoices, grant complimentary credits, refund paid purchases and invoices; the log of
 * grants and refunds. Platform administrators only (the server decides; this mirrors it).
 */
export function CreditsSection({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [search, setSearch] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [selected, setSelected] = useState<AdminCreditOrganization | null>(null);
  const organizations = useCreditOrganizations(submitted ?? '', canManage && submitted !== null);

  if (!canManage) return <Typography color="text.secondary">{t('admin.credits.administrators_only')}</Typography>;

  // The selected organization as the latest search answers it (its balance after a grant or refund).
  const current = (selected && organizations.data?.organizations.find((o) => o.id === selected.id)) ?? selected;
  const columns: Column<AdminCreditOrganization>[] = [
    { key: 'name', header: t('admin.credits.organization'), render: (o) => `${o.name} (${o.handle})` },
    { key: 'plan', header: t('admin.credits.plan'), render: (o) => o.plan?.title ?? '—' },
    { key: 'balance', header: t('admin.credits.balance'), render: (o) => o.credit_balance.toLocaleString('en-US') },
    {
      key: 'open',
      header: t('admin.credits.actions'),
      render: (o) => (
        <Button size="small" onClick={() => setSelected(o)} aria-label={t('admin.credits.manage_label', { organization: o.name })} aria-pressed={current?.id === o.id}>
          {t('admin.credits.manage')}
        </Button>
      ),
    },
  ];
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('admin.credits.description')}</Typography>
      <Stack
        component="form"
        role="search"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'flex-start', maxWidth: 560 }}
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(search.trim());
        }}
      >
        <TextInput id={`${id}-search`} label={t('admin.credits.search_label')} value={search} onChange={(e) => setSearch(e.target.value)} inputProps={{ maxLength: 100 }} size="small" />
        <Button type="submit" variant="outlined">
          {t('admin.credits.search')}
        </Button>
      </Stack>
      {submitted !== null &&
        (organizations.isError ? (
          <FullPageError message={t('admin.credits.load_failed')} onRetry={() => void organizations.refetch()} />
        ) : organizations.data?.organizations.length === 0 ? (
          <Typography color="text.secondary">{t('admin.credits.no_organizations', { search: submitted })}</Typography>
        ) : (
          <DataTable label={t('admin.credits.organizations_table')} columns={columns} rows={organizations.data?.organizations} getRowKey={(o) => o.id} loading={organizations.isPending} />
        ))}
      {current ? <OrganizationCredits organization={current} /> : <AdjustmentLog organizationId={null} />}
    </Stack>
  );
}

function OrganizationCredits({ organization }: { organization: AdminCreditOrganization }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const bundles = useOrganizationBundles(organization.id, page);
  const invoices = useOrganizationInvoices(organization.id);
  const refundBundle = useRefundBundle();
  const refundInvoice = useRefundInvoice();
  const [granting, setGranting] = useState(false);
  const [refunding, setRefunding] = useState<RefundTarget | null>(null);

  const status = (s: string) => t(`admin.credits.status_${s.replace(' ', '_')}`, { defaultValue: s });
  const invoiceState = (s: string) => t(`admin.credits.invoice_state_${s}`, { defaultValue: s.replace('_', ' ') });
  const bundleColumns: Column<AdminCreditBundle>[] = [
    { key: 'date', header: t('admin.credits.date'), render: (b) => <DateText value={b.created_at} /> },
    { key: 'quantity', header: t('admin.credits.quantity'), render: (b) => b.original_quantity.toLocaleString('en-US') },
    { key: 'status', header: t('admin.credits.status'), render: (b) => <Chip size="small" variant="outlined" label={status(b.payment_status)} /> },
    { key: 'cost', header: t('admin.credits.cost'), render: (b) => formatCents(b.total_cost) },
    { key: 'available', header: t('admin.credits.available'), render: (b) => b.available_balance.toLocaleString('en-US') },
    { key: 'invoice', header: t('admin.credits.invoice'), render: (b) => (b.invoice ? `${b.invoice.number} (${invoiceState(b.invoice.state)})` : '—') },
    {
      key: 'actions',
      header: t('admin.credits.actions'),
      render: (b) =>
        bundleRefundProblem({ ...b, invoice_state: b.invoice?.state ?? null }) === undefined ? (
          <Button
            size="small"
            color="error"
            aria-label={t('admin.credits.refund_bundle_label', { quantity: b.original_quantity, date: b.created_at.slice(0, 10) })}
            onClick={() =>
              setRefunding({
                what: t('admin.credits.bundle_what', { quantity: b.original_quantity.toLocaleString('en-US') }),
                amountCents: b.invoice?.total_in_cents ?? b.total_cost,
                organization: organization.name,
                run: (reason) => refundBundle.mutateAsync({ id: b.id, reason }),
              })
            }
          >
            {t('admin.credits.refund')}
          </Button>
        ) : null,
    },
  ];
  const invoiceColumns: Column<InvoiceInfo>[] = [
    { key: 'number', header: t('admin.credits.invoice'), render: (i) => i.invoice_number },
    { key: 'date', header: t('admin.credits.date'), render: (i) => <DateText value={i.created_at} /> },
    { key: 'total', header: t('admin.credits.total'), render: (i) => formatCents(Number(i.total_in_cents)) },
    { key: 'state', header: t('admin.credits.status'), render: (i) => invoiceState(i.state) },
    {
      key: 'actions',
      header: t('admin.credits.actions'),
      render: (i) =>
        invoiceRefundProblem({ state: i.state, total_in_cents: Number(i.total_in_cents) }) === undefined ? (
          <Button
            size="small"
            color="error"
            aria-label={t('admin.credits.refund_invoice_label', { number: i.invoice_number })}
            onClick={() =>
              setRefunding({
                what: t('admin.credits.invoice_what', { number: i.invoice_number }),
                amountCents: Number(i.total_in_cents),
                organization: organization.name,
                run: (reason) => refundInvoice.mutateAsync({ number: i.invoice_number, reason }),
              })
            }
          >
            {t('admin.credits.refund')}
          </Button>
        ) : null,
    },
  ];
  const count = bundles.data?.total ?? 0;
  const from = page * ADMIN_CREDITS_PAGE_SIZE;
  return (
    <Stack spacing={2} component="section" aria-labelledby={`admin-credits-org-${organization.id}`}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id={`admin-credits-org-${organization.id}`} variant="subtitle1" component="h3">
          {t('admin.credits.organization_heading', { organization: organization.name, balance: organization.credit_balance.toLocaleString('en-US') })}
        </Typography>
        <Button variant="contained" onClick={() => setGranting(true)}>
          {t('admin.credits.grant_button')}
        </Button>
      </Stack>
      {!organization.plan || organization.plan.code === 'free' ? <Typography color="text.secondary">{t('admin.credits.free_plan_note')}</Typography> : null}
      <Typography variant="subtitle2" component="h4">
        {t('admin.credits.bundles_heading')}
      </Typography>
      {bundles.isError ? (
        <FullPageError message={t('admin.credits.load_failed')} onRetry={() => void bundles.refetch()} />
      ) : bundles.data?.bundles.length === 0 && page === 0 ? (
        <Typography color="text.secondary">{t('admin.credits.no_bundles')}</Typography>
      ) : (
        <>
          <DataTable label={t('admin.credits.bundles_table', { organization: organization.name })} columns={bundleColumns} rows={bundles.data?.bundles} getRowKey={(b) => b.id} loading={bundles.isPending} />
          {count > ADMIN_CREDITS_PAGE_SIZE && (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Button disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                {t('admin.credits.previous_page')}
              </Button>
              <Typography>{t('admin.credits.page', { from: from + 1, to: Math.min(count, from + ADMIN_CREDITS_PAGE_SIZE), total: count })}</Typography>
              <Button disabled={from + ADMIN_CREDITS_PAGE_SIZE >= count} onClick={() => setPage((p) => p + 1)}>
                {t('admin.credits.next_page')}
              </Button>
            </Stack>
          )}
        </>
      )}
      <Typography variant="subtitle2" component="h4">
        {t('admin.credits.invoices_heading')}
      </Typography>
      {invoices.isError ? (
        <FullPageError message={t('admin.credits.load_failed')} onRetry={() => void invoices.refetch()} />
      ) : invoices.data?.length === 0 ? (
        <Typography color="text.secondary">{t('admin.credits.no_invoices')}</Typography>
      ) : (
        <DataTable label={t('admin.credits.invoices_table', { organization: organization.name })} columns={invoiceColumns} rows={invoices.data?.slice(0, 50)} getRowKey={(i) => i.invoice_number} loading={invoices.isPending} />
      )}
      <AdjustmentLog organizationId={organization.id} />
      <Suspense fallback={null}>
        {granting && <GrantCreditsDialog organization={organization} onClose={() => setGranting(false)} />}
        {refunding && <RefundDialog target={refunding} onClose={() => setRefunding(null)} />}
      </Suspense>
    </Stack>
  );
}

/** The latest grants and refunds: who, when, what and why. */
function AdjustmentLog({ organizationId }: { organizationId: number | null }) {
  const { t } = useTranslation();
  const log = useCreditAdjustments(organizationId);
  const columns: Column<CreditAdjustment>[] = [
    { key: 'date', header: t('admin.credits.date'), render: (a) => <DateText value={a.created_at} /> },
    { key: 'kind', header: t('admin.credits.kind'), render: (a) => (a.kind === 'grant' ? t('admin.credits.kind_grant') : t('admin.credits.kind_refund')) },
    { key: 'organization', header: t('admin.credits.organization'), render: (a) => a.organization.name },
    {
      key: 'what',
      header: t('admin.credits.what'),
      render: (a) =>
        a.kind === 'grant'
          ? t('admin.credits.granted_what', { quantity: (a.quantity ?? 0).toLocaleString('en-US') })
          : t('admin.credits.refunded_what', { amount: formatCents(a.amount_cents), number: a.invoice_number ?? '—' }),
    },
    { key: 'by', header: t('admin.credits.by'), render: (a) => a.administrator.username },
    { key: 'reason', header: t('admin.credits.reason'), render: (a) => a.reason },
  ];
  return (
    <>
      <Typography variant="subtitle2" component="h4">
        {t('admin.credits.log_heading')}
      </Typography>
      {log.isError ? (
        <FullPageError message={t('admin.credits.load_failed')} onRetry={() => void log.refetch()} />
      ) : log.data?.adjustments.length === 0 ? (
        <Typography color="text.secondary">{t('admin.credits.log_empty')}</Typography>
      ) : (
        <DataTable label={t('admin.credits.log_table')} columns={columns} rows={log.data?.adjustments} getRowKey={(a) => a.id} loading={log.isPending} />
      )}
    </>
  );
}
