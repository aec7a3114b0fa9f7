import { sshKeyFingerprint } from '@flotilla/model';
import { Button, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { ApiKeySection } from '../../../components/api-key-section';
import { useDeleteSshKey, useSshKeys, type SshKey } from '../api/ssh-keys';
import { formatDate } from '../../../lib/date-format';

// The forms load when first opened (the first-page budget).
const AddSshKeyDialog = lazy(async () => ({ default: (await import('./ssh-key-dialogs')).AddSshKeyDialog }));
const ImportSshKeysDialog = lazy(async () => ({ default: (await import('./ssh-key-dialogs')).ImportSshKeysDialog }));

type Dialog = { kind: 'add' } | { kind: 'import' } | { kind: 'delete'; key: SshKey } | null;

/** Spec 1 §2 SSH keys: table (title, fingerprint, added), add manually or import from GitHub, delete. */
export function SshKeysTab() {
  const { t } = useTranslation();
  const keys = useSshKeys();
  const remove = useDeleteSshKey();
  const [dialog, setDialog] = useState<Dialog>(null);

  const columns: Column<SshKey>[] = [
    { key: 'title', header: t('preferences.ssh.col_title'), render: (k) => k.title },
    {
      key: 'fingerprint',
      header: t('preferences.ssh.col_fingerprint'),
      render: (k) => (
        <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {sshKeyFingerprint(k.public_key) ?? ''}
        </Typography>
      ),
    },
    { key: 'added', header: t('preferences.ssh.col_added'), render: (k) => formatDate(k.created_at) ?? k.created_at },
    {
      key: 'actions',
      header: t('preferences.ssh.col_actions'),
      render: (k) => (
        <Button size="small" color="error" aria-label={t('preferences.ssh.delete_named', { title: k.title })} onClick={() => setDialog({ kind: 'delete', key: k })}>
          {t('common.delete')}
        </Button>
      ),
    },
  ];

  return (
    <ApiKeySection
      title={t('preferences.ssh.title')}
      explanation={t('preferences.ssh.explanation')}
      actions={
        <>
          <Button variant="outlined" onClick={() => setDialog({ kind: 'import' })}>
            {t('preferences.ssh.import')}
          </Button>
          <Button variant="contained" onClick={() => setDialog({ kind: 'add' })}>
            {t('preferences.ssh.add')}
          </Button>
        </>
      }
      loadFailed={keys.isError}
      loadFailedText={t('preferences.ssh.load_failed')}
      onRetry={() => void keys.refetch()}
      empty={keys.data?.length === 0}
      emptyText={t('preferences.ssh.empty')}
      dialogs={
        <>
          <Suspense fallback={null}>
            {dialog?.kind === 'add' && <AddSshKeyDialog onClose={() => setDialog(null)} />}
            {dialog?.kind === 'import' && <ImportSshKeysDialog onClose={() => setDialog(null)} />}
          </Suspense>
          {dialog?.kind === 'delete' && (
            <ConfirmDialog
              title={t('preferences.ssh.delete_title')}
              body={t('preferences.ssh.delete_body', { title: dialog.key.title })}
              confirmLabel={t('common.delete')}
              onConfirm={() => remove.mutateAsync(dialog.key.id)}
              success={t('preferences.ssh.deleted', { title: dialog.key.title })}
              onClose={() => setDialog(null)}
            />
          )}
        </>
      }
    >
      <DataTable label={t('preferences.ssh.table')} columns={columns} rows={keys.data} getRowKey={(k) => k.id} loading={keys.isPending} />
    </ApiKeySection>
  );
}
