import { DEVICE_OVERALL_STATUSES } from '@flotilla/model';
import { Skeleton } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFleetDeviceCounts } from '../api/get-fleet-device-counts';
import { DetailsList } from './details-list';

/** The summary's devices card: the total and the count per overall status (spec 2 §2, §4). */
export function FleetDevicesCard({ fleetId }: { fleetId: number }) {
  const { t } = useTranslation();
  const counts = useFleetDeviceCounts(fleetId);
  const value = (n: number | undefined): ReactNode => (counts.isError ? '—' : n === undefined ? <Skeleton width={24} /> : n);
  const rows: [string, ReactNode][] = [
    [t('fleet_summary.devices_total'), value(counts.data?.total)],
    ...DEVICE_OVERALL_STATUSES.map((s): [string, ReactNode] => [t(`fleet_summary.status_${s}`), value(counts.data?.byStatus[s])]),
  ];
  return <DetailsList title={t('fleet_summary.devices')} rows={rows} />;
}
