import { DEVICE_OVERALL_STATUSES, type DeviceOverallStatus } from '@flotilla/model';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { StatusCounts } from '../../../lib/device-status-counts';
import type { DeviceFilters } from '../api/get-fleet-devices';
import type { FilterOption } from '../api/get-device-filter-options';

interface Props {
  filters: DeviceFilters;
  onChange: (next: DeviceFilters) => void;
  counts: StatusCounts | undefined;
  deviceTypes: FilterOption[];
  releases: FilterOption[];
}

/** Status counts (each a status filter), device-type and release filters, and the name search. */
export function DeviceFiltersBar({ filters, onChange, counts, deviceTypes, releases }: Props) {
  const { t } = useTranslation();
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const setStatus = (status: DeviceOverallStatus | undefined) => onChange({ ...filters, status });
  const any = t('devices.filter_any');
  const hasFilters = Object.values(filters).some((v) => v !== undefined && v !== '');
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} role="group" aria-label={t('devices.counts')}>
        <Chip
          label={t('devices.count_all', { count: total ?? 0 })}
          color={filters.status === undefined ? 'primary' : 'default'}
          onClick={() => setStatus(undefined)}
          aria-pressed={filters.status === undefined}
        />
        {DEVICE_OVERALL_STATUSES.map((s) => (
          <Chip
            key={s}
            label={`${t(`devices.status_${s}`)} (${counts?.[s] ?? 0})`}
            color={filters.status === s ? 'primary' : 'default'}
            variant={counts?.[s] ? 'filled' : 'outlined'}
            onClick={() => setStatus(filters.status === s ? undefined : s)}
            aria-pressed={filters.status === s}
          />
        ))}
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5}>
        <TextField
          size="small"
          label={t('devices.search_label')}
          helperText={t('devices.search_hint')}
          value={filters.search ?? ''}
          onChange={(e) => onChange({ ...filters, search: e.target.value || undefined })}
        />
        <FilterSelect
          label={t('devices.filter_status')}
          any={any}
          minWidth={180}
          value={filters.status}
          options={DEVICE_OVERALL_STATUSES.map((s) => ({ value: s, label: t(`devices.status_${s}`) }))}
          onChange={setStatus}
        />
        <FilterSelect
          label={t('devices.filter_device_type')}
          any={any}
          value={filters.deviceTypeId}
          options={deviceTypes.map((o) => ({ value: o.id, label: o.label }))}
          onChange={(deviceTypeId) => onChange({ ...filters, deviceTypeId })}
        />
        <FilterSelect
          label={t('devices.filter_release')}
          any={any}
          value={filters.releaseId}
          options={[
            // A release from the URL that is not among the listed ones still shows as chosen.
            ...(filters.releaseId !== undefined && !releases.some((o) => o.id === filters.releaseId) ? [{ value: filters.releaseId, label: `#${filters.releaseId}` }] : []),
            ...releases.map((o) => ({ value: o.id, label: o.label })),
          ]}
          onChange={(releaseId) => onChange({ ...filters, releaseId })}
        />
        {hasFilters ? (
          <Button onClick={() => onChange({})} sx={{ alignSelf: 'flex-start' }}>
            {t('devices.clear_filters')}
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}

interface FilterSelectProps<V extends string | number> {
  label: string;
  /** The first entry's text: no filter. */
  any: string;
  minWidth?: number;
  value: V | undefined;
  options: readonly { value: V; label: string }[];
  onChange: (value: V | undefined) => void;
}

/** One filter: a select whose first entry is "any" (no filter), then the options. */
function FilterSelect<V extends string | number>({ label, any, minWidth = 200, value, options, onChange }: FilterSelectProps<V>) {
  return (
    <TextField
      select
      size="small"
      sx={{ minWidth }}
      label={label}
      value={value ?? ''}
      onChange={(e) => onChange(options.find((o) => String(o.value) === String(e.target.value))?.value)}
    >
      <MenuItem value="">{any}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
