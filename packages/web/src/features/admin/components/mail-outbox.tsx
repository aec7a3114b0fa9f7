import { Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageError } from '../../../components/full-page-status';
import { useMailOutbox, type OutboxMail } from '../api/get-mail-outbox';
import { MailBodyDialog } from './mail-body-dialog';
import { MailOutboxTable } from './mail-outbox-table';

/** The mail outbox section; only platform administrators may read email_outbox. */
export function MailOutbox({ canRead }: { canRead: boolean }) {
  const { t } = useTranslation();
  const outbox = useMailOutbox(canRead);
  const [open, setOpen] = useState<OutboxMail | null>(null);

  if (!canRead) return <Typography color="text.secondary">{t('admin.outbox.administrators_only')}</Typography>;
  if (outbox.isError) return <FullPageError message={t('admin.outbox.load_failed')} onRetry={() => void outbox.refetch()} />;
  if (outbox.data?.length === 0) return <Typography color="text.secondary">{t('admin.outbox.empty')}</Typography>;
  return (
    <>
      <MailOutboxTable mails={outbox.data} loading={outbox.isPending} onOpen={setOpen} />
      {open && <MailBodyDialog mail={open} onClose={() => setOpen(null)} />}
    </>
  );
}
