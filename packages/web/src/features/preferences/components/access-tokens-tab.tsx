import { Button, Stack, TablePagination, TableSortLabel, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { ApiKeySection } from '../../../components/api-key-section';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useSession } from '../../../lib/get-session';
import { useSamlAccounts } from '../api/saml-accounts';
import { useRevokeUserApiKey, useSessionToken, useUserApiKeys, type ApiKeyPage, type ApiKeySortField, type UserApiKey } from '../api/api-keys';
import type { RunSensitive } from './api-key-dialog';
import { formatDate } from '../../../lib/date-format';

// The form loads when first opened (the first-page budget).
const ApiKeyDialog = lazy(async () => ({ default: (await import('./api-key-dialog')).ApiKeyDialog }));

const PAGE_SIZES = [10, 25, 50];
type Dialog = { kind: 'create' } | { kind: 'edit'; key: UserApiKey } | { kind: 'revoke'; key: UserApiKey } | null;

/** Spec 1 §2 access tokens: the session token, then the user's named API keys. */
export function AccessTokensTab({ runSensitive }: { runSensitive: RunSensitive }) {
  return (
    <Stack spacing={4}>
      <SessionTokenSection />
      <ApiKeysSection runSensitive={runSensitive} />
    </Stack>
  );
}

function SessionTokenSection() {
  const { t } = useTranslation();
  const notify = useNotify();
  const token = useSessionToken();
  const [shown, setShown] = useState(false);
  return (
    <Stack component="section" aria-label={t('preferences.tokens.session_title')} spacing={1}>
      <Typography variant="h6" component="h2">
        {t('preferences.tokens.session_title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('preferences.tokens.session_explanation')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextInput
          id="session-token"
          label={t('preferences.tokens.session_token')}
          type={shown ? 'text' : 'password'}
          value={token.data ?? ''}
          readOnly
          inputProps={{ style: { fontFamily: 'monospace' } }}
        />
        <Button onClick={() => setShown((s) => !s)}>{shown ? t('preferences.tokens.hide') : t('preferences.tokens.reveal')}</Button>
        <Button
          onClick={() =>
            void navigator.clipboard.writeText(token.data ?? '').then(
              () => notify.success(t('preferences.details.copied')),
              () => notify.error(t('preferences.details.copy_failed')),
            )
          }
        >
          {t('common.copy')}
        </Button>
      </Stack>
    </Stack>
  );
}

function ApiKeysSection({ runSensitive }: { runSensitive: RunSensitive }) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<ApiKeyPage>({ page: 0, pageSize: PAGE_SIZES[0]!, sort: { field: 'created_at', direction: 'desc' } });
  const keys = useUserApiKeys(paging);
  const revoke = useRevokeUserApiKey();
  const [dialog, setDialog] = useState<Dialog>(null);
  const { data: user } = useSession();
  const samlAccounts = useSamlAccounts(user?.id);
  const samlUser = (samlAccounts.data?.length ?? 0) > 0;
  const date = (value: string) => formatDate(value) ?? value;

  const sortable = (field: ApiKeySortField, label: string) => (
    <TableSortLabel
      active={paging.sort.field === field}
      direction={paging.sort.field === field ? paging.sort.direction : 'asc'}
      onClick={() =>
        setPaging((p) => ({
          ...p,
          page: 0,
          sort: { field, direction: p.sort.field === field && p.sort.direction === 'asc' ? 'desc' : 'asc' },
        }))
      }
    >
      {label}
    </TableSortLabel>
  );

  const columns: Column<UserApiKey>[] = [
    { key: 'name', header: sortable('name', t('preferences.tokens.col_name')), render: (k) => k.name },
    { key: 'description', header: sortable('description', t('preferences.tokens.col_description')), render: (k) => k.description ?? '' },
    { key: 'created', header: sortable('created_at', t('preferences.tokens.col_created')), render: (k) => date(k.created_at) },
    {
      key: 'expiry',
      header: sortable('expiry_date', t('preferences.tokens.col_expiry')),
      render: (k) =>
        k.expiry_date === null
          ? t('preferences.tokens.never')
          : new Date(k.expiry_date).getTime() <= Date.now()
            ? `${date(k.expiry_date)} (${t('preferences.tokens.expired')})`
            : date(k.expiry_date),
    },
    {
      key: 'actions',
      header: t('preferences.tokens.col_actions'),
      render: (k) => (
        <Stack direction="row" spacing={1}>
          <Button size="small" aria-label={t('preferences.tokens.edit_named', { name: k.name })} onClick={() => setDialog({ kind: 'edit', key: k })}>
            {t('common.edit')}
          </Button>
          <Button size="small" color="error" aria-label={t('preferences.tokens.revoke_named', { name: k.name })} onClick={() => setDialog({ kind: 'revoke', key: k })}>
            {t('common.revoke')}
          </Button>
        </Stack>
      ),
    },
  ];

  return (
    <Stack spacing={1}>
      {samlUser && (
        <Typography role="note" color="warning.main" data-testid="saml-api-keys-warning">
          {t('preferences.enterprise_sso.no_api_keys')}
        </Typography>
      )}
      <ApiKeySection
        title={t('preferences.tokens.keys_title')}
        explanation={t('preferences.tokens.keys_explanation')}
        actions={
          // Spec 1 §6: a SAML account cannot create API keys (the server refuses it too).
          <Button variant="contained" disabled={samlUser} onClick={() => setDialog({ kind: 'create' })}>
            {t('preferences.tokens.create')}
          </Button>
        }
        loadFailed={keys.isError && !keys.data}
        loadFailedText={t('preferences.tokens.load_failed')}
        onRetry={() => void keys.refetch()}
        empty={keys.data?.total === 0}
        emptyText={t('preferences.tokens.empty')}
        dialogs={
          <>
            {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
              <Suspense fallback={null}>
                <ApiKeyDialog editing={dialog.kind === 'edit' ? dialog.key : undefined} runSensitive={runSensitive} onClose={() => setDialog(null)} />
              </Suspense>
            )}
            {dialog?.kind === 'revoke' && (
              <ConfirmDialog
                title={t('preferences.tokens.revoke_title')}
                body={t('preferences.tokens.revoke_body', { name: dialog.key.name })}
                confirmLabel={t('common.revoke')}
                onConfirm={() => revoke.mutateAsync(dialog.key.id)}
                success={t('preferences.tokens.revoked', { name: dialog.key.name })}
                onClose={() => setDialog(null)}
              />
            )}
          </>
        }
      >
        <DataTable label={t('preferences.tokens.table')} columns={columns} rows={keys.data?.rows} getRowKey={(k) => k.id} loading={keys.isPending} />
        <TablePagination
          component="div"
          count={keys.data?.total ?? 0}
          page={paging.page}
          rowsPerPage={paging.pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          labelRowsPerPage={t('preferences.tokens.rows_per_page')}
          onPageChange={(_e, page) => setPaging((p) => ({ ...p, page }))}
          onRowsPerPageChange={(e) => setPaging((p) => ({ ...p, page: 0, pageSize: Number(e.target.value) }))}
        />
      </ApiKeySection>
    </Stack>
  );
}
