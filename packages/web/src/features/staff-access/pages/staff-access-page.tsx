import { Alert, Button, MenuItem, Paper, Stack, TablePagination, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../../components/full-page-status';
import { PageHeader } from '../../../components/page-header';
import { DataTable, type Column } from '../../../components/data-table';
import { RedirectWithError } from '../../../components/redirect-with-error';
import { formatDate } from '../../../lib/date-format';
import { useNotify } from '../../../lib/notify';
import { paths } from '../../../lib/paths';
import { AUDIT_KINDS, AUDIT_PAGE_SIZES, describeChanges, downloadAuditExport, useAuditEvents, useChainStatus, type AuditKind, type AuditPage } from '../api/get-audit-events';
import '../i18n';

type Row = AuditPage['rows'][number];

/** Not an administrator of the organization: back to it with the reason (the server answers them nothing anyway). */
export function StaffAccessNoAccess({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  return <RedirectWithError to={paths.organization(organizationId)} message={t('staff_access.no_access')} />;
}

/** The hash chain's state as the server walked it: verified up to row N, or broken at row N. */
function ChainStatusLine({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const chain = useChainStatus(organizationId);
  if (chain.isPending) return <Typography color="text.secondary">{t('staff_access.chain_checking')}</Typography>;
  if (chain.isError) return <Alert severity="warning">{t('staff_access.chain_failed')}</Alert>;
  const s = chain.data;
  if (s.broken) return <Alert severity="error">{t('staff_access.chain_broken', { id: s.broken.id })}</Alert>;
  if (s.lastId === null) return <Typography color="text.secondary">{t('staff_access.chain_empty')}</Typography>;
  return <Alert severity="success">{t('staff_access.chain_verified', { id: s.lastId, rows: s.rows })}</Alert>;
}

/**
 * /orgs/{orgId}/staff-access: the organization's audit log (issue 19 item 2 staff reads, issue
 * 21 item 5 writes and actions), newest first, paged, by kind: when, who (the actual user when
 * an administrator was logged in as someone), what, and the fields each write changed; the
 * hash chain's status and the NDJSON export.
 */
export function StaffAccessPage({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<AuditKind | null>(null);
  const [paging, setPaging] = useState<{ page: number; pageSize: number }>({ page: 0, pageSize: AUDIT_PAGE_SIZES[0] });
  const events = useAuditEvents(organizationId, kind, paging.page, paging.pageSize);
  const notify = useNotify();
  if (events.isError) return <FullPageError message={t('staff_access.load_failed')} onRetry={() => void events.refetch()} />;

  const exportLog = async () => {
    try {
      await downloadAuditExport(organizationId);
    } catch (err) {
      notify.error(err);
    }
  };

  const columns: Column<Row>[] = [
    { key: 'when', header: t('staff_access.when'), render: (r) => formatDate(r.created_at) },
    {
      key: 'who',
      header: t('staff_access.who'),
      render: (r) => (
        <>
          {r.performed_as_username}
          {r.api_key && (
            <Typography component="span" variant="body2" color="text.secondary">
              {' '}
              ({t('staff_access.api_key', { key: r.api_key })})
            </Typography>
          )}
        </>
      ),
    },
    {
      key: 'actual',
      header: t('staff_access.actual_user'),
      render: (r) => (
        <>
          {r.performed_by_username !== r.performed_as_username ? r.performed_by_username : ''}
          {r.staff_role && (
            <Typography component="span" variant="body2" color="text.secondary">
              {' '}
              ({r.staff_role === 'administrator' ? t('staff_access.role_administrator') : t('staff_access.role_support_agent')})
            </Typography>
          )}
        </>
      ),
    },
    {
      key: 'what',
      header: t('staff_access.what'),
      render: (r) => (
        <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {r.action ? `${r.action} ` : ''}
          {r.method} {r.request}
        </Typography>
      ),
    },
    {
      key: 'changes',
      header: t('staff_access.changes'),
      render: (r) => (
        <Typography component="div" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', whiteSpace: 'pre-line' }}>
          {describeChanges(r.changes).join('\n')}
        </Typography>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('staff_access.title')}
        actions={
          <Button variant="outlined" onClick={() => void exportLog()}>
            {t('staff_access.export')}
          </Button>
        }
      />
      <Stack spacing={2}>
        <Typography color="text.secondary">{t('staff_access.intro')}</Typography>
        <ChainStatusLine organizationId={organizationId} />
        <TextField
          select
          size="small"
          label={t('staff_access.kind_filter')}
          value={kind ?? 'all'}
          onChange={(e) => {
            setKind(e.target.value === 'all' ? null : (e.target.value as AuditKind));
            setPaging((p) => ({ ...p, page: 0 }));
          }}
          sx={{ maxWidth: 240 }}
        >
          <MenuItem value="all">{t('staff_access.kind_all')}</MenuItem>
          {AUDIT_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {t(`staff_access.kind_${k}`)}
            </MenuItem>
          ))}
        </TextField>
        {events.data && events.data.total === 0 ? (
          <Paper variant="outlined" sx={{ p: 3 }}>
            <Typography>{t('staff_access.empty')}</Typography>
          </Paper>
        ) : (
          <>
            <DataTable label={t('staff_access.table')} columns={columns} rows={events.data?.rows} getRowKey={(r) => r.id} loading={events.isPending} />
            <TablePagination
              component="div"
              count={events.data?.total ?? 0}
              page={paging.page}
              rowsPerPage={paging.pageSize}
              rowsPerPageOptions={[...AUDIT_PAGE_SIZES]}
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
