import { Paper, Stack, TablePagination, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { DataTable, type Column } from '../../../components/data-table';
import { RedirectWithError } from '../../../components/redirect-with-error';
import { formatDate } from '../../../lib/date-format';
import { paths } from '../../../lib/paths';
import { STAFF_READS_PAGE_SIZES, useStaffReads, type StaffReadsPage } from '../api/get-staff-reads';
import '../i18n';

type Row = StaffReadsPage['rows'][number];

/** Not an administrator of the organization: back to it with the reason (the server answers them nothing anyway). */
export function StaffAccessNoAccess({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  return <RedirectWithError to={paths.organization(organizationId)} message={t('staff_access.no_access')} />;
}

/**
 * /orgs/{orgId}/staff-access (issue 19 item 2): what provider staff read of the organization's
 * data, newest first, paged: when, who (and whom an administrator was logged in as), what.
 */
export function StaffAccessPage({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<{ page: number; pageSize: number }>({ page: 0, pageSize: STAFF_READS_PAGE_SIZES[0] });
  const reads = useStaffReads(organizationId, paging.page, paging.pageSize);
  if (reads.isError) return <FullPageError message={t('staff_access.load_failed')} onRetry={() => void reads.refetch()} />;

  const columns: Column<Row>[] = [
    { key: 'when', header: t('staff_access.when'), render: (r) => formatDate(r.created_at) },
    {
      key: 'staff',
      header: t('staff_access.staff'),
      render: (r) => (
        <>
          {r.performed_by_username}
          {r.performed_as_username !== r.performed_by_username && (
            <Typography component="span" variant="body2" color="text.secondary">
              {' '}
              ({t('staff_access.acting_as', { username: r.performed_as_username })})
            </Typography>
          )}
        </>
      ),
    },
    { key: 'role', header: t('staff_access.role'), render: (r) => (r.staff_role === 'administrator' ? t('staff_access.role_administrator') : r.staff_role === 'support_agent' ? t('staff_access.role_support_agent') : '') },
    {
      key: 'what',
      header: t('staff_access.what'),
      render: (r) => (
        <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {r.method} {r.request}
        </Typography>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={t('staff_access.title')} />
      <Stack spacing={2}>
        <Typography color="text.secondary">{t('staff_access.intro')}</Typography>
        {reads.data && reads.data.total === 0 ? (
          <Paper variant="outlined" sx={{ p: 3 }}>
            <Typography>{t('staff_access.empty')}</Typography>
          </Paper>
        ) : (
          <>
            <DataTable label={t('staff_access.table')} columns={columns} rows={reads.data?.rows} getRowKey={(r) => r.id} loading={reads.isPending} />
            <TablePagination
              component="div"
              count={reads.data?.total ?? 0}
              page={paging.page}
              rowsPerPage={paging.pageSize}
              rowsPerPageOptions={[...STAFF_READS_PAGE_SIZES]}
              labelRowsPerPage={t('staff_access.rows_per_page')}
              onPageChange={(_e, page) => setPaging((p) => ({ ...p, page }))}
              onRowsPerPageChange={(e) => setPaging({ page: 0, pageSize: Number(e.target.value) })}
            />
          </>
        )}
      </Stack>
    </>
  );
}
