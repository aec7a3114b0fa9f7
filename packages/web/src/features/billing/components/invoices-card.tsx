import { formatCents, canDownloadInvoice, invoiceTone } from '@flotilla/model';
import { Box, Button, Chip, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from '@mui/material';
import type { InvoiceInfo } from 'balena-sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/date-format';
import { useNotify } from '../../../lib/notify';
import { downloadInvoice } from '../api/billing-api';
import { cents, INVOICES_SHOWN } from '../billing-view';
import { BillingCard, CardStatus } from './billing-card';

const TONE_COLOR = { done: 'success', waiting: 'warning', danger: 'error' } as const;

/** Spec 3 §2/§4 invoices: the latest 6 (all on 'view all'), state chips, downloads (not drafts). */
export function InvoicesCard({ orgId, invoices }: { orgId: number; invoices: { data: InvoiceInfo[] | undefined; isError: boolean } }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [all, setAll] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const list = invoices.data ?? [];
  const shown = all ? list : list.slice(0, INVOICES_SHOWN);

  const download = async (number: string) => {
    setBusy(number);
    try {
      await downloadInvoice(orgId, number);
    } catch {
      notify.error(t('billing.errors.invoice_download'));
    } finally {
      setBusy(null);
    }
  };

  const stateLabel = (invoice: InvoiceInfo) =>
    invoice.state === 'past_due'
      ? t('billing.invoices.past_due', { date: formatDate(invoice.due_on) })
      : t(`billing.invoices.state_${invoice.state}`, { defaultValue: invoice.state });

  return (
    <BillingCard title={t('billing.invoices.heading')}>
      {invoices.isError ? (
        <CardStatus error>{t('billing.errors.invoices')}</CardStatus>
      ) : !invoices.data ? (
        <CardStatus>{t('billing.loading')}</CardStatus>
      ) : list.length === 0 ? (
        <CardStatus>{t('billing.invoices.empty')}</CardStatus>
      ) : (
        <>
          <Table size="small" aria-label={t('billing.invoices.heading')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('billing.invoices.number')}</TableCell>
                <TableCell>{t('billing.invoices.date')}</TableCell>
                <TableCell>{t('billing.invoices.due')}</TableCell>
                <TableCell>{t('billing.invoices.state')}</TableCell>
                <TableCell align="right">{t('billing.invoices.total')}</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={visuallyHidden}>
                    {t('billing.invoices.download')}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((invoice) => {
                const downloadable = canDownloadInvoice(invoice.state);
                const button = (
                  <Button
                    size="small"
                    disabled={!downloadable}
                    loading={busy === invoice.invoice_number}
                    aria-label={t('billing.invoices.download_named', { number: invoice.invoice_number })}
                    onClick={() => void download(invoice.invoice_number)}
                  >
                    {t('billing.invoices.download')}
                  </Button>
                );
                return (
                  <TableRow key={invoice.uuid || invoice.invoice_number} data-testid="invoice-row">
                    <TableCell>{invoice.invoice_number}</TableCell>
                    <TableCell>{formatDate(invoice.created_at)}</TableCell>
                    <TableCell>{formatDate(invoice.due_on)}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={TONE_COLOR[invoiceTone(invoice.state)]} label={stateLabel(invoice)} />
                    </TableCell>
                    <TableCell align="right">{formatCents(cents(invoice.total_in_cents))}</TableCell>
                    <TableCell align="right">
                      {downloadable ? (
                        button
                      ) : (
                        <Tooltip title={t('billing.invoices.draft_tooltip')}>
                          {/* A disabled button gets no pointer events: the span carries the tooltip. */}
                          <span tabIndex={0}>{button}</span>
                        </Tooltip>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          {list.length > INVOICES_SHOWN && (
            <Button sx={{ mt: 1 }} onClick={() => setAll((v) => !v)} aria-expanded={all}>
              {all ? t('billing.invoices.show_fewer') : t('billing.invoices.view_all')}
            </Button>
          )}
        </>
      )}
    </BillingCard>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
