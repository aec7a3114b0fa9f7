import { Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { ApiKeySection } from '../../../components/api-key-section';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useCreateProvisioningKey, useProvisioningKeys, useRevokeProvisioningKey, type ProvisioningKey } from '../api/provisioning-keys';
import { CreatedKeyDialog } from './created-key-dialog';
import { CreateProvisioningKeyDialog } from './create-provisioning-key-dialog';
import { DateText } from './details-list';

type Dialog = { kind: 'create' } | { kind: 'created'; key: string } | { kind: 'revoke'; key: ProvisioningKey } | null;

/** /fleets/{id}/api-keys (spec 2 §2): the fleet's provisioning keys. */
export function ProvisioningKeysPage({ fleetId, canManage }: { fleetId: number; canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const keys = useProvisioningKeys(fleetId);
  const create = useCreateProvisioningKey(fleetId);
  const revoke = useRevokeProvisioningKey(fleetId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const label = (k: ProvisioningKey) => k.name ?? t('api_keys.unnamed', { id: k.id });

  const columns: Column<ProvisioningKey>[] = [
    { key: 'name', header: t('api_keys.col_name'), render: label },
    { key: 'description', header: t('api_keys.col_description'), render: (k) => k.description ?? '' },
    { key: 'created', header: t('api_keys.col_created'), render: (k) => <DateText value={k.created_at} language={i18n.language} time /> },
    {
      key: 'expiry',
      header: t('api_keys.col_expiry'),
      render: (k) => (k.expiry_date ? <DateText value={k.expiry_date} language={i18n.language} time /> : t('api_keys.never')),
    },
    {
      key: 'actions',
      header: t('api_keys.col_actions'),
      render: (k) => (
        <PermissionTooltip allowed={canManage}>
          <Button size="small" color="error" aria-label={t('api_keys.revoke_named', { name: label(k) })} disabled={!canManage} onClick={() => setDialog({ kind: 'revoke', key: k })}>
            {t('common.revoke')}
          </Button>
        </PermissionTooltip>
      ),
    },
  ];

  return (
    <ApiKeySection
      title={t('api_keys.title')}
      explanation={t('api_keys.explanation')}
      actions={
        <PermissionTooltip allowed={canManage}>
          <Button variant="contained" disabled={!canManage} onClick={() => setDialog({ kind: 'create' })}>
            {t('api_keys.create')}
          </Button>
        </PermissionTooltip>
      }
      loadFailed={keys.isError}
      loadFailedText={t('api_keys.load_failed')}
      onRetry={() => void keys.refetch()}
      empty={keys.data?.length === 0}
      emptyText={t('api_keys.empty')}
      dialogs={
        <>
          {dialog?.kind === 'create' && (
            <CreateProvisioningKeyDialog
              onClose={() => setDialog(null)}
              onCreate={async (key) => {
                const value = await create.mutateAsync(key);
                setDialog({ kind: 'created', key: value });
              }}
            />
          )}
          {dialog?.kind === 'created' && <CreatedKeyDialog apiKey={dialog.key} onClose={() => setDialog(null)} />}
          {dialog?.kind === 'revoke' && (
            <ConfirmDialog
              title={t('api_keys.revoke_title')}
              body={t('api_keys.revoke_body', { name: label(dialog.key) })}
              confirmLabel={t('common.revoke')}
              onConfirm={() => revoke.mutateAsync(dialog.key.id)}
              success={t('api_keys.revoked', { name: label(dialog.key) })}
              onClose={() => setDialog(null)}
            />
          )}
        </>
      }
    >
      <DataTable label={t('api_keys.table')} columns={columns} rows={keys.data} getRowKey={(k) => k.id} loading={keys.isPending} />
    </ApiKeySection>
  );
}
