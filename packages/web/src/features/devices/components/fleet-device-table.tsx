import { frozenReasonOf } from '@flotilla/model';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import { useDeviceFilterOptions } from '../api/get-device-filter-options';
import { useDeviceStatusCounts, useFleetDevices, type DeviceFilters, type DeviceRow } from '../api/get-fleet-devices';
import { DEVICE_PAGE_SIZES } from '../api/keys';
import {
  deviceLensParams,
  devicePageSizeParams,
  deviceTableParams,
  parseDeviceLens,
  parseDevicePageSize,
  parseDeviceTableParams,
  type DeviceLens,
} from '../device-table-params';
import { DeviceBatchActions, type SelectedDevice } from './device-batch-actions';
import { DeviceFrozenBadge } from './device-frozen-badge';
import { DeviceStatusChip } from './device-status-chip';
import { addressList } from './format';
import { LastSeen } from './last-seen';
import { paths } from '../../../lib/paths';

// The filter bar and the page-size select carry MUI's Select, Menu and inputs (~15 kB gzip):
// their own chunks, so the device table's first page stays within budget (ARCHITECTURE.md).
const DeviceFiltersBar = lazy(async () => ({ default: (await import('./device-filters-bar')).DeviceFiltersBar }));
const PageSizeSelect = lazy(() => import('./page-size-select'));

// The Map lens (Leaflet, clustering, its strings) loads only when it is opened.
const FleetDeviceMap = lazy(async () => ({ default: (await import('./fleet-device-map')).FleetDeviceMap }));
const LENSES: DeviceLens[] = ['table', 'map'];

interface Props {
  fleetId: number;
  /** Whether the caller holds a permission on this fleet (spec 2 §6). */
  can: (permission: string) => boolean;
  /** Buttons beside the table's title (the app puts "Add device" there). */
  actions?: ReactNode;
}

/**
 * The fleet's device table (spec 2 §2 "Fleet pages", §7 "Devices"): per-status counts, filters
 * kept in the URL, server-side pages ordered by last connectivity, row selection and batch
 * actions. Pages (50 rows, or up to 500 on request) come from the server; pages longer than
 * 100 rows render only the rows in view.
 */
export function FleetDeviceTable({ fleetId, can, actions }: Props) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { filters, page } = parseDeviceTableParams(params);
  const lens = parseDeviceLens(params);
  const pageSize = parseDevicePageSize(params);
  const devices = useFleetDevices(fleetId, filters, page, pageSize, lens === 'table');
  const counts = useDeviceStatusCounts(fleetId);
  const options = useDeviceFilterOptions(fleetId);
  const [selected, setSelected] = useState<Map<number, SelectedDevice>>(new Map());
  const canSelect = can('resin.device.update') || can('resin.device.delete');

  const update = (next: DeviceFilters, nextPage: number) => {
    setSelected(new Map());
    setParams(deviceTableParams(params, next, nextPage), { replace: true });
  };

  const rows = devices.data?.rows;
  const total = devices.data?.total ?? 0;
  const toggle = (row: DeviceRow, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(row.id, { id: row.id, uuid: row.uuid, device_name: row.device_name });
    else next.delete(row.id);
    setSelected(next);
  };
  const allOnPage = rows !== undefined && rows.length > 0 && rows.every((r) => selected.has(r.id));

  const none = t('devices.none');
  const columns: Column<DeviceRow>[] = [
    ...(canSelect
      ? [
          {
            key: 'select',
            header: (
              <Checkbox
                size="small"
                checked={allOnPage}
                indeterminate={selected.size > 0 && !allOnPage}
                onChange={(e) => {
                  const next = new Map(selected);
                  for (const r of rows ?? []) {
                    if (e.target.checked) next.set(r.id, { id: r.id, uuid: r.uuid, device_name: r.device_name });
                    else next.delete(r.id);
                  }
                  setSelected(next);
                }}
                slotProps={{ input: { 'aria-label': t('devices.select_all') } }}
              />
            ),
            render: (row: DeviceRow) => (
              <Checkbox
                size="small"
                checked={selected.has(row.id)}
                onChange={(e) => toggle(row, e.target.checked)}
                slotProps={{ input: { 'aria-label': t('devices.select_row', { name: row.device_name }) } }}
              />
            ),
          },
        ]
      : []),
    {
      key: 'name',
      header: t('devices.col_name'),
      render: (row) => (
        <Link component={RouterLink} to={paths.device(row.uuid)}>
          {row.device_name}
        </Link>
      ),
    },
    {
      key: 'status',
      header: t('devices.col_status'),
      // The fleet's pages are closed while its organization is frozen: a frozen device here is beyond the free allowance.
      render: (row) => (
        <>
          <DeviceStatusChip status={row.overall_status} />
          <DeviceFrozenBadge reason={frozenReasonOf(row, false)} />
        </>
      ),
    },
    { key: 'last_seen', header: t('devices.col_last_seen'), render: (row) => <LastSeen device={row} /> },
    { key: 'device_type', header: t('devices.col_device_type'), render: (row) => row.deviceType?.name ?? none },
    {
      key: 'release',
      header: t('devices.col_release'),
      render: (row) => (row.release ? `${row.release.raw_version} (${row.release.commit.slice(0, 7)})` : none),
    },
    {
      key: 'os',
      header: t('devices.col_os'),
      render: (row) => (row.os_version ? `${row.os_version}${row.os_variant ? ` (${row.os_variant})` : ''}` : none),
    },
    { key: 'ip', header: t('devices.col_ip'), render: (row) => addressList(row.ip_address).join(', ') || none },
  ];

  const from = total === 0 ? 0 : page * pageSize + 1;
  const to = Math.min(total, (page + 1) * pageSize);
  const filtered = Object.keys(filters).length > 0;
  return (
    <Paper variant="outlined" component="section" aria-label={t('devices.list')} sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h6" component="h2">
            {t('devices.list')}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            {actions}
            <Stack direction="row" role="group" aria-label={t('devices.lens')}>
              {LENSES.map((l) => (
                <Button
                  key={l}
                  size="small"
                  variant={lens === l ? 'contained' : 'outlined'}
                  aria-pressed={lens === l}
                  onClick={() => setParams(deviceLensParams(params, l), { replace: true })}
                >
                  {t(`devices.lens_${l}`)}
                </Button>
              ))}
            </Stack>
          </Stack>
        </Stack>
        <Suspense fallback={<Box sx={{ minHeight: 112 }} />}>
          <DeviceFiltersBar
            filters={filters}
            onChange={(next) => update(next, 0)}
            counts={counts.data}
            deviceTypes={options.data?.deviceTypes ?? []}
            releases={options.data?.releases ?? []}
          />
        </Suspense>
        {lens === 'map' ? (
          <Suspense fallback={<Typography color="text.secondary">{t('devices.lens_map')}…</Typography>}>
            <FleetDeviceMap fleetId={fleetId} filters={filters} />
          </Suspense>
        ) : null}
        {lens === 'table' && canSelect ? (
          <Stack direction="row" spacing={2}>
            <DeviceBatchActions fleetId={fleetId} selected={[...selected.values()]} can={can} onDone={() => setSelected(new Map())} />
          </Stack>
        ) : null}
        {lens === 'table' && devices.isError ? <Alert severity="error">{t('devices.load_failed')}</Alert> : null}
        {lens === 'table' ? (
          <DataTable
            label={t('devices.table')}
            columns={columns}
            rows={rows}
            getRowKey={(r) => r.id}
            loading={devices.isPending}
            virtualize={{ maxHeight: 640 }}
          />
        ) : null}
        {lens === 'table' && rows?.length === 0 ? <Typography color="text.secondary">{filtered ? t('devices.no_match') : t('devices.empty')}</Typography> : null}
        {lens === 'table' && total > DEVICE_PAGE_SIZES[0] ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
            <Suspense fallback={null}>
              <PageSizeSelect
                value={pageSize}
                onChange={(size) => {
                  setSelected(new Map());
                  setParams(devicePageSizeParams(params, size), { replace: true });
                }}
              />
            </Suspense>
            <Typography>{t('devices.page_of', { from, to, total })}</Typography>
            <IconButton aria-label={t('devices.previous_page')} disabled={page === 0} onClick={() => update(filters, page - 1)}>
              ‹
            </IconButton>
            <IconButton aria-label={t('devices.next_page')} disabled={to >= total} onClick={() => update(filters, page + 1)}>
              ›
            </IconButton>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
