import { Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import type { Organization } from '../api/get-organizations';
import { paths } from '../../../lib/paths';

export function OrganizationsTable({ organizations, loading }: { organizations: Organization[] | undefined; loading?: boolean }) {
  const { t } = useTranslation();
  const roleLabel = (org: Organization) => {
    const role = org.organization_membership[0]?.organization_membership_role[0]?.name;
    if (role === 'administrator') return t('orgs.role_administrator');
    if (role === 'member') return t('orgs.role_member');
    return role ?? '';
  };
  const columns: Column<Organization>[] = [
    {
      key: 'name',
      header: t('orgs.col_name'),
      // Rows lead to the organization's summary, /orgs/{id} (spec 1 §2).
      render: (o) => (
        <Link component={RouterLink} to={paths.organization(o.id)}>
          {o.name}
        </Link>
      ),
    },
    { key: 'handle', header: t('orgs.col_handle'), render: (o) => o.handle },
    { key: 'role', header: t('orgs.col_role'), render: roleLabel },
  ];
  return <DataTable label={t('orgs.title')} columns={columns} rows={organizations} getRowKey={(o) => o.id} loading={loading} />;
}
