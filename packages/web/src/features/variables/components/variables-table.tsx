import { Box, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../components/data-table';
import { HistoryButton } from '../history/history-button';
import type { HistoryTarget } from '../history/history-api';
import { StagedRowMark, type RowState } from '../staging';
import { ALL_SERVICES, type VariableRow } from '../variable-row';
import '../i18n';

/** A row as a variables table shows it. */
export interface DisplayRow {
  key: string;
  row: VariableRow;
  state: RowState;
  error?: string | undefined;
  /** Device page: the fleet's value this row overrides (or, for an inherited row, gives). */
  fleetValue?: string | undefined;
  /** Device page: a fleet variable the device does not override (not the device's own row). */
  inherited?: boolean;
  /** Device page: whether an inherited row can be overridden (a service variable needs that service on the device). */
  overridable?: boolean;
}

export interface RowActionHandlers {
  onEdit?: (row: DisplayRow) => void;
  onDelete?: (row: DisplayRow) => void;
  onUndo?: (row: DisplayRow) => void;
  /** Device page: override an inherited fleet variable. */
  onOverwrite?: (row: DisplayRow) => void;
  /** Fleet page: the device overrides dialog. */
  onOverrides?: (row: DisplayRow) => void;
  /** Which variable's history a row's History button opens (none: no button). */
  historyOf?: (row: DisplayRow) => HistoryTarget | undefined;
}

const VALUE_SX = { fontFamily: 'monospace', wordBreak: 'break-all', whiteSpace: 'pre-wrap' } as const;

interface VariablesTableProps extends RowActionHandlers {
  /** Undefined while the rows load (skeleton rows). */
  rows: DisplayRow[] | undefined;
  /** Whether the caller may change variables (spec 2 §6): otherwise no edit controls. */
  canEdit: boolean;
  busy: boolean;
  showFleetValue: boolean;
}

/** The one table of environment and service variables (spec 2 §2, §3), with each row's staged state. */
export function VariablesTable({ rows, canEdit, busy, showFleetValue, ...on }: VariablesTableProps) {
  const { t } = useTranslation();
  const label = (d: DisplayRow) => (d.row.serviceId === ALL_SERVICES ? d.row.name : `${d.row.name} (${d.row.serviceName})`);
  const columns: Column<DisplayRow>[] = [
    {
      key: 'name',
      header: t('variables.col_name'),
      render: (d) => (
        <Box component="span" sx={{ ...VALUE_SX, textDecoration: d.state === 'deleted' ? 'line-through' : undefined }}>
          {d.row.name}
        </Box>
      ),
    },
    {
      key: 'value',
      header: t('variables.col_value'),
      render: (d) => (
        <Stack spacing={0.25}>
          <Box component="span" sx={{ ...VALUE_SX, textDecoration: d.state === 'deleted' ? 'line-through' : undefined }}>
            {d.row.value}
          </Box>
          {showFleetValue && d.inherited ? (
            <Typography variant="caption" color="text.secondary">
              {t('variables.from_fleet')}
            </Typography>
          ) : showFleetValue && d.fleetValue !== undefined ? (
            <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {t('variables.overrides_fleet_value', { value: d.fleetValue })}
            </Typography>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'service',
      header: t('variables.col_service'),
      render: (d) => (d.row.serviceId === ALL_SERVICES ? t('variables.all_services') : d.row.serviceName),
    },
    {
      key: 'changes',
      header: t('variables.col_changes'),
      render: (d) => (
        <StagedRowMark state={d.state} name={label(d)} error={d.error} disabled={busy || !on.onUndo} onUndo={() => on.onUndo?.(d)} />
      ),
    },
    {
      key: 'actions',
      header: t('variables.col_actions'),
      render: (d) => <RowButtons d={d} name={label(d)} canEdit={canEdit} busy={busy} {...on} />,
    },
  ];
  return <DataTable label={t('variables.table_label')} columns={columns} rows={rows} loading={rows === undefined} getRowKey={(d) => d.key} />;
}

function RowButtons({ d, name, canEdit, busy, onEdit, onDelete, onOverwrite, onOverrides, historyOf }: { d: DisplayRow; name: string; canEdit: boolean; busy: boolean } & RowActionHandlers) {
  const { t } = useTranslation();
  const persisted = d.state !== 'added' && !d.inherited;
  const history = d.state !== 'added' ? historyOf?.(d) : undefined;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
      {onOverrides && persisted && d.state !== 'deleted' ? (
        <Button size="small" onClick={() => onOverrides(d)} aria-label={t('variables.overrides_row', { name })}>
          {t('variables.overrides')}
        </Button>
      ) : null}
      {canEdit && d.inherited && d.overridable !== false && onOverwrite ? (
        <Button size="small" disabled={busy} onClick={() => onOverwrite(d)} aria-label={t('variables.overwrite_row', { name })}>
          {t('variables.overwrite')}
        </Button>
      ) : null}
      {canEdit && !d.inherited && d.state !== 'deleted' ? (
        <>
          <Button size="small" disabled={busy} onClick={() => onEdit?.(d)} aria-label={t('variables.edit_row', { name })}>
            {t('common.edit')}
          </Button>
          <Button size="small" color="error" disabled={busy} onClick={() => onDelete?.(d)} aria-label={t('variables.delete_row', { name })}>
            {t('common.delete')}
          </Button>
        </>
      ) : null}
      {history ? <HistoryButton target={history} label={name} /> : null}
    </Stack>
  );
}
