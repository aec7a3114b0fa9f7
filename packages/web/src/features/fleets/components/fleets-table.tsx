import { Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import type { Fleet } from '../api/get-fleets';

export function FleetsTable({ fleets, loading }: { fleets: Fleet[] | undefined; loading?: boolean }) {
  const { t } = useTranslation();
  const columns: Column<Fleet>[] = [
    {
      key: 'name',
      header: t('fleets.col_name'),
      render: (f) => (
        <Link component={RouterLink} to={`/fleets/${f.id}`}>
          {f.app_name}
        </Link>
      ),
    },
    { key: 'organization', header: t('fleets.col_organization'), render: (f) => f.organization[0]?.name ?? '' },
    { key: 'device_type', header: t('fleets.col_device_type'), render: (f) => f.is_for__device_type[0]?.name ?? '' },
  ];
  return <DataTable label={t('fleets.title')} columns={columns} rows={fleets} getRowKey={(f) => f.id} loading={loading} />;
}
