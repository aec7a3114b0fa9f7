import { Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import type { OutboxMail } from '../api/get-mail-outbox';
import { formatDate } from '../../../lib/date-format';

interface MailOutboxTableProps {
  mails: OutboxMail[] | undefined;
  loading: boolean;
  onOpen: (mail: OutboxMail) => void;
}

/** Newest first: created, recipient, subject (opens the body), and delivery: sent, kept, queued (with the last SMTP error and the next attempt) or failed. */
export function MailOutboxTable({ mails, loading, onOpen }: MailOutboxTableProps) {
  const { t } = useTranslation();
  const columns: Column<OutboxMail>[] = [
    { key: 'created', header: t('admin.outbox.created'), render: (m) => formatDate(m.created_at) },
    { key: 'recipient', header: t('admin.outbox.recipient'), render: (m) => m.recipient },
    {
      key: 'subject',
      header: t('admin.outbox.subject'),
      render: (m) => (
        <Link component="button" type="button" onClick={() => onOpen(m)} sx={{ textAlign: 'left' }}>
          {m.subject}
        </Link>
      ),
    },
    {
      key: 'status',
      header: t('admin.outbox.status'),
      render: (m) =>
        m.status === 'failed' ? (
          <Typography variant="body2" color="error">
            {t('admin.outbox.failed', { error: m.error ?? '', count: m.attempts })}
          </Typography>
        ) : m.status === 'queued' ? (
          <Typography variant="body2" color="warning.main">
            {m.error
              ? t('admin.outbox.retrying', {
                  error: m.error,
                  count: m.attempts,
                  at: formatDate(m.next_attempt_at) ?? '',
                })
              : t('admin.outbox.queued')}
          </Typography>
        ) : m.sent_via === 'smtp' ? (
          t('admin.outbox.sent')
        ) : (
          t('admin.outbox.kept')
        ),
    },
  ];
  return <DataTable label={t('admin.outbox.title')} columns={columns} rows={mails} getRowKey={(m) => m.id} loading={loading} />;
}
