import type { ApplicationClass } from '@flotilla/model';
import { Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import type { ApplicationRow } from '../api/get-applications';
import { DeviceStatusSummary } from './device-status-summary';
import { paths } from '../../../lib/paths';

/** The table lens: name (opens /{class}s/{id}), organization, device type, devices per status. */
export function ApplicationsTable({ appClass, rows, loading }: { appClass: ApplicationClass; rows: ApplicationRow[] | undefined; loading?: boolean }) {
  const { t } = useTranslation();
  const columns: Column<ApplicationRow>[] = [
    {
      key: 'name',
      header: t('fleets.col_name'),
      render: (a) => (
        <Link component={RouterLink} to={paths.application(appClass, a.id)}>
          {a.app_name}
        </Link>
      ),
    },
    { key: 'organization', header: t('fleets.col_organization'), render: (a) => a.organization[0]?.name ?? '' },
    { key: 'device_type', header: t('fleets.col_device_type'), render: (a) => a.is_for__device_type[0]?.name ?? '' },
    { key: 'devices', header: t('fleets.col_devices'), render: (a) => <DeviceStatusSummary devices={a.owns__device} /> },
  ];
  return <DataTable label={t(`fleets.title_${appClass}`)} columns={columns} rows={rows} getRowKey={(a) => a.id} loading={loading} />;
}
