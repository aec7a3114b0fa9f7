import { formatCents } from '@flotilla/model';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { DateText } from '../../../components/date-text';
import type { CreditBundleRow } from '../api/credits';

/** Spec 3 §9: the history shows 5 purchases a page. */
export const HISTORY_PAGE_SIZE = 5;

/** Spec 3 §2: purchase date, user, status, amount and cost, 5 rows a page, newest first. */
export function PurchaseHistory({ bundles }: { bundles: CreditBundleRow[] }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(bundles.length / HISTORY_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const rows = bundles.slice(current * HISTORY_PAGE_SIZE, (current + 1) * HISTORY_PAGE_SIZE);
  const columns: Column<CreditBundleRow>[] = [
    { key: 'date', header: t('credits.col_date'), render: (b) => <DateText value={b.created_at} /> },
    { key: 'user', header: t('credits.col_user'), render: (b) => b.username ?? '' },
    { key: 'status', header: t('credits.col_status'), render: (b) => {
        const known = KNOWN_STATUSES.find((s) => s === b.payment_status);
        return known ? t(`credits.status_${known}`) : b.payment_status;
      },
    },
    { key: 'amount', header: t('credits.col_amount'), render: (b) => b.original_quantity.toLocaleString('en-US') },
    { key: 'cost', header: t('credits.col_cost'), render: (b) => formatCents(b.total_cost) },
  ];
  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="credits-history-title">
      <Typography variant="h6" component="h2" id="credits-history-title" gutterBottom>
        {t('credits.history_title')}
      </Typography>
      {bundles.length === 0 ? (
        <Typography color="text.secondary">{t('credits.history_empty')}</Typography>
      ) : (
        <>
          <DataTable label={t('credits.history_title')} columns={columns} rows={rows} getRowKey={(b) => b.id} />
          {pages > 1 && (
            <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center', justifyContent: 'flex-end' }}>
              <Button size="small" disabled={current === 0} onClick={() => setPage(current - 1)}>
                {t('credits.page_previous')}
              </Button>
              <Box component="span" aria-live="polite">
                {t('credits.page_of', { page: current + 1, pages })}
              </Box>
              <Button size="small" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
                {t('credits.page_next')}
              </Button>
            </Stack>
          )}
        </>
      )}
    </Paper>
  );
}

const KNOWN_STATUSES = ['processing', 'paid', 'failed', 'complimentary', 'cancelled', 'refunded', 'manually invoiced'] as const;
