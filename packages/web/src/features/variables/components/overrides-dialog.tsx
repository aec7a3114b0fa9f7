import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Link, Stack, TablePagination, Typography } from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable } from '../../../components/data-table';
import { selectColumn } from '../../../components/selectable-table';
import { paths } from '../../../lib/paths';
import { deleteOverrides, getOverrides, type DeviceOverride } from '../api/fleet-variables';
import { OVERRIDES_PAGE_SIZE, overridesKey, variablesRootKey } from '../api/keys';
import { ALL_SERVICES, type VariableRow } from '../variable-row';
import '../i18n';

interface OverridesDialogProps {
  fleetId: number;
  variable: VariableRow;
  /** Operators and up delete device variables (spec 2 §6). */
  canDelete: boolean;
  onClose: () => void;
}

/**
 * The device overrides dialog of the fleet variables page (spec 2 §2, §9: page size 5): the
 * fleet's devices that override the variable, with their value; selected overrides are
 * deleted after a confirmation (spec 2 §5: at least one must be selected).
 */
export function OverridesDialog({ fleetId, variable, canDelete, onClose }: OverridesDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const query = useQuery({
    queryKey: [...overridesKey(fleetId, variable.serviceId, variable.name), page],
    queryFn: () => getOverrides(fleetId, variable, page, OVERRIDES_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const name = variable.serviceId === ALL_SERVICES ? variable.name : `${variable.name} (${variable.serviceName})`;
  const rows = query.data?.rows ?? [];
  const total = query.data?.total ?? 0;
  const goTo = (next: number) => {
    setPage(next);
    setSelected(new Set());
  };

  const columns = [
    {
      key: 'device',
      header: t('variables.overrides_device'),
      render: (r: DeviceOverride) => (
        <Link component={RouterLink} to={paths.device(r.deviceUuid, 'envvars')}>
          {r.deviceName || r.deviceUuid.slice(0, 7)}
        </Link>
      ),
    },
    {
      key: 'uuid',
      header: 'UUID',
      render: (r: DeviceOverride) => <Typography sx={{ fontFamily: 'monospace' }}>{r.deviceUuid.slice(0, 7)}</Typography>,
    },
    {
      key: 'value',
      header: t('variables.overrides_value'),
      render: (r: DeviceOverride) => <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{r.value}</Typography>,
    },
  ];
  const select = selectColumn<DeviceOverride>({
    rows,
    getId: (r) => r.id,
    selected,
    onSelectedChange: setSelected,
    allLabel: t('variables.overrides_select_all'),
    rowLabel: (r) => t('variables.overrides_select_row', { name: r.deviceName || r.deviceUuid }),
  });

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t('variables.overrides_title', { name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {query.isError ? (
            <Typography color="error">{t('variables.overrides_load_failed')}</Typography>
          ) : query.data && total === 0 ? (
            <Typography color="text.secondary">{t('variables.overrides_empty')}</Typography>
          ) : (
            <>
              <DataTable
                label={t('variables.overrides_table')}
                columns={canDelete ? [select, ...columns] : columns}
                rows={query.data ? rows : undefined}
                loading={query.isPending}
                getRowKey={(r) => r.id}
              />
              {total > OVERRIDES_PAGE_SIZE ? (
                <TablePagination
                  component="div"
                  count={total}
                  page={page}
                  rowsPerPage={OVERRIDES_PAGE_SIZE}
                  rowsPerPageOptions={[OVERRIDES_PAGE_SIZE]}
                  onPageChange={(_, next) => goTo(next)}
                />
              ) : null}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {canDelete && total > 0 ? (
          <Button color="error" disabled={selected.size === 0} onClick={() => setConfirming(true)}>
            {t('variables.overrides_delete')}
          </Button>
        ) : null}
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
      {confirming ? (
        <ConfirmDialog
          title={t('variables.overrides_delete_title')}
          body={t('variables.overrides_delete_body', { count: selected.size })}
          confirmLabel={t('common.delete')}
          success={t('variables.overrides_deleted', { count: selected.size })}
          onConfirm={() => deleteOverrides(variable.serviceId, [...selected])}
          onSuccess={() => {
            setSelected(new Set());
            if (page > 0 && selected.size >= rows.length) setPage(page - 1);
            void queryClient.invalidateQueries({ queryKey: variablesRootKey });
          }}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </Dialog>
  );
}
