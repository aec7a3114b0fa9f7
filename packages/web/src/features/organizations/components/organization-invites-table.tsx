import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { selectColumn } from '../../../components/selectable-table';
import type { OrganizationInvite } from '../api/get-organization-invites';
import { formatDate } from '../../../lib/date-format';

interface Props {
  invites: OrganizationInvite[] | undefined;
  loading: boolean;
  selected: ReadonlySet<number>;
  onSelectedChange: (selected: Set<number>) => void;
  onRevoke: (invite: OrganizationInvite) => void;
}

/** Pending invites (administrators only): invitee, role, created, expiry; single revoke. */
export function OrganizationInvitesTable({ invites, loading, selected, onSelectedChange, onRevoke }: Props) {
  const { t } = useTranslation();
  const date = (value: string | null) => formatDate(value) ?? '—';
  const roleLabel = (role: string | null) =>
    role === 'administrator' ? t('orgs.role_administrator') : role === 'member' ? t('orgs.role_member') : (role ?? '');
  const all = invites ?? [];

  const columns: Column<OrganizationInvite>[] = [
    selectColumn({
      rows: all,
      getId: (i) => i.id,
      selected,
      onSelectedChange,
      allLabel: t('members.select_all_invites'),
      rowLabel: (i) => t('members.select_invite', { invitee: i.invitee }),
    }),
    { key: 'invitee', header: t('members.col_invitee'), render: (i) => i.invitee },
    { key: 'role', header: t('members.col_role'), render: (i) => roleLabel(i.role) },
    { key: 'created', header: t('members.col_created'), render: (i) => date(i.createdAt) },
    { key: 'expiry', header: t('members.col_expiry'), render: (i) => date(i.expiry) },
    {
      key: 'actions',
      header: t('members.col_actions'),
      render: (i) => (
        <Button size="small" color="error" onClick={() => onRevoke(i)} aria-label={t('members.revoke_named', { invitee: i.invitee })}>
          {t('common.revoke')}
        </Button>
      ),
    },
  ];

  return <DataTable label={t('members.invites')} columns={columns} rows={invites} getRowKey={(i) => i.id} loading={loading} />;
}
