import { Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import { RowActions } from '../../../components/row-actions';
import type { FleetMember } from '../api/get-fleet-members';
import { fleetRoleLabel } from '../fleet-roles';
import { paths } from '../../../lib/paths';

interface Props {
  organizationId: number;
  members: FleetMember[] | undefined;
  loading: boolean;
  /** Fleet administrators change roles and remove members; others see the controls disabled. */
  canManage: boolean;
  onChangeRole: (member: FleetMember) => void;
  onRemove: (member: FleetMember) => void;
}

/**
 * The fleet's own members (spec 2 §2): a row links to the user's organization member page
 * when they are a member of the fleet's organization; fleet-only members are not linked.
 */
export function FleetMembersTable({ organizationId, members, loading, canManage, onChangeRole, onRemove }: Props) {
  const { t } = useTranslation();
  const name = (m: FleetMember) => m.username ?? t('org_summary.user_fallback', { id: m.userId });
  const columns: Column<FleetMember>[] = [
    {
      key: 'username',
      header: t('fleet_members.col_username'),
      render: (m) =>
        m.organizationMembershipId === undefined ? (
          name(m)
        ) : (
          <Link component={RouterLink} to={paths.organizationMember(organizationId, m.organizationMembershipId)}>
            {name(m)}
          </Link>
        ),
    },
    { key: 'role', header: t('fleet_members.col_role'), render: (m) => fleetRoleLabel(m.role, t) },
    {
      key: 'actions',
      header: t('fleet_members.col_actions'),
      render: (m) => (
        <RowActions
          allowed={canManage}
          actions={[
            { label: t('fleet_members.change_role'), name: t('fleet_members.change_role_named', { name: name(m) }), onClick: () => onChangeRole(m) },
            { label: t('common.remove'), name: t('fleet_members.remove_named', { name: name(m) }), onClick: () => onRemove(m), danger: true },
          ]}
        />
      ),
    },
  ];
  return <DataTable label={t('fleet_members.title')} columns={columns} rows={members} getRowKey={(m) => m.id} loading={loading} />;
}
