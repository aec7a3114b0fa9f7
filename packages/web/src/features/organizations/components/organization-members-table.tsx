import { Button, Chip, Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import { selectColumn } from '../../../components/selectable-table';
import type { OrganizationMember } from '../api/get-organization-members';
import { paths } from '../../../lib/paths';

interface Props {
  organizationId: number;
  members: OrganizationMember[] | undefined;
  loading: boolean;
  currentUserId: number | undefined;
  /** Administrators select members (batch role change) and delete memberships. */
  canManage: boolean;
  selected: ReadonlySet<number>;
  onSelectedChange: (selected: Set<number>) => void;
  onDelete: (member: OrganizationMember) => void;
}

/** The members page's table, ordered by username (the query sorts), with role chips. */
export function OrganizationMembersTable({ organizationId, members, loading, currentUserId, canManage, selected, onSelectedChange, onDelete }: Props) {
  const { t } = useTranslation();
  const name = (m: OrganizationMember) => m.username ?? t('org_summary.user_fallback', { id: m.userId });
  const roleLabel = (role: string | null) =>
    role === 'administrator' ? t('orgs.role_administrator') : role === 'member' ? t('orgs.role_member') : (role ?? '');
  const all = members ?? [];

  const columns: Column<OrganizationMember>[] = [
    ...(canManage
      ? [
          selectColumn({
            rows: all,
            getId: (m) => m.membershipId,
            selected,
            onSelectedChange,
            allLabel: t('members.select_all_members'),
            rowLabel: (m) => t('members.select_member', { name: name(m) }),
          }),
        ]
      : []),
    {
      key: 'username',
      header: t('members.col_username'),
      render: (m) => (
        <>
          <Link component={RouterLink} to={paths.organizationMember(organizationId, m.membershipId)}>
            {name(m)}
          </Link>
          {m.userId === currentUserId ? ` ${t('org_summary.you')}` : ''}
        </>
      ),
    },
    {
      key: 'role',
      header: t('members.col_role'),
      render: (m) => (
        <Chip size="small" label={roleLabel(m.role)} color={m.role === 'administrator' ? 'primary' : 'default'} variant="outlined" />
      ),
    },
    ...(canManage
      ? [
          {
            key: 'actions',
            header: t('members.col_actions'),
            render: (m: OrganizationMember) => (
              <Button size="small" color="error" onClick={() => onDelete(m)} aria-label={t('members.delete_member_named', { name: name(m) })}>
                {t('members.delete_member')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return <DataTable label={t('members.title')} columns={columns} rows={members} getRowKey={(m) => m.membershipId} loading={loading} />;
}
