import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import type { FleetInvite } from '../api/get-fleet-invites';
import { fleetRoleLabel } from '../fleet-roles';
import { formatDate } from '../../../lib/date-format';

/** Pending fleet invites (fleet administrators only): email, role, invited at, revoke. */
export function FleetInvitesTable({ invites, loading, onRevoke }: { invites: FleetInvite[] | undefined; loading: boolean; onRevoke: (invite: FleetInvite) => void }) {
  const { t } = useTranslation();
  const date = (value: string | null) => formatDate(value) ?? '—';
  const columns: Column<FleetInvite>[] = [
    { key: 'invitee', header: t('fleet_members.col_invitee'), render: (i) => i.invitee },
    { key: 'role', header: t('fleet_members.col_role'), render: (i) => fleetRoleLabel(i.role, t) },
    { key: 'created', header: t('fleet_members.col_invited_at'), render: (i) => date(i.createdAt) },
    {
      key: 'actions',
      header: t('fleet_members.col_actions'),
      render: (i) => (
        <Button size="small" color="error" onClick={() => onRevoke(i)} aria-label={t('fleet_members.revoke_named', { invitee: i.invitee })}>
          {t('common.revoke')}
        </Button>
      ),
    },
  ];
  return <DataTable label={t('fleet_members.invites')} columns={columns} rows={invites} getRowKey={(i) => i.id} loading={loading} />;
}
