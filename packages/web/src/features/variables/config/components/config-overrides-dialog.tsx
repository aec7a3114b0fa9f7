import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable } from '../../../../components/data-table';
import { selectColumn } from '../../../../components/selectable-table';
import { useRunMutation } from '../../../../lib/notify';
import { paths } from '../../../../lib/paths';
import { configKeys, useConfigOverrides, type ConfigOverride } from '../api/config-variables';
import { deleteDeviceConfigVariables } from '../api/config-writes';
import '../i18n';

/** Spec 2 §9: the config overrides dialog shows 5 devices a page. */
export const OVERRIDES_PAGE_SIZE = 5;

interface Props {
  fleetId: number;
  name: string;
  /** Whether the caller may delete device configuration variables. */
  canDelete: boolean;
  onClose: () => void;
}

/**
 * Spec 2 §2/§5/§9: the devices of the fleet whose own configuration variable overrides the
 * fleet's `name`, five a page; selected overrides are deleted in one request (the devices
 * then get the fleet value), which needs at least one selection.
 */
export function ConfigOverridesDialog({ fleetId, name, canDelete, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const queryClient = useQueryClient();
  const run = useRunMutation();
  const overrides = useConfigOverrides(fleetId, name);
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const rows = overrides.data ?? [];
  const pageRows = rows.slice(page * OVERRIDES_PAGE_SIZE, (page + 1) * OVERRIDES_PAGE_SIZE);
  const remove = async () => {
    setBusy(true);
    try {
      await run(() => deleteDeviceConfigVariables([...selected]), {
        success: t('variablesConfig.overrides_deleted', { count: selected.size }),
        onSuccess: () => {
          setSelected(new Set());
          setPage(0);
        },
      });
      await queryClient.invalidateQueries({ queryKey: configKeys.overrides(fleetId, name) });
    } finally {
      setBusy(false);
    }
  };
  const select = selectColumn<ConfigOverride>({
    rows: pageRows,
    getId: (r) => r.id,
    selected,
    onSelectedChange: setSelected,
    allLabel: t('variablesConfig.overrides_select_all'),
    rowLabel: (r) => t('variablesConfig.overrides_select', { device: r.device.device_name }),
  });
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('variablesConfig.overrides_title', { name })}</DialogTitle>
      <DialogContent>
        {overrides.isSuccess && rows.length === 0 ? (
          <Typography>{t('variablesConfig.overrides_none')}</Typography>
        ) : (
          <>
            <DataTable
              label={t('variablesConfig.overrides_table', { name })}
              loading={overrides.isPending}
              rows={pageRows}
              getRowKey={(r) => r.id}
              columns={[
                ...(canDelete ? [select] : []),
                {
                  key: 'device',
                  header: t('variablesConfig.device'),
                  render: (r) => (
                    <Link component={RouterLink} to={paths.device(r.device.uuid, 'config')}>
                      {r.device.device_name}
                    </Link>
                  ),
                },
                { key: 'value', header: t('variablesConfig.device_value'), render: (r) => <code>{r.value}</code> },
              ]}
            />
            <TablePagination
              component="div"
              count={rows.length}
              page={page}
              rowsPerPage={OVERRIDES_PAGE_SIZE}
              rowsPerPageOptions={[OVERRIDES_PAGE_SIZE]}
              onPageChange={(_, p) => setPage(p)}
            />
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {t('common.close')}
        </Button>
        {canDelete ? (
          <Button variant="contained" color="error" disabled={selected.size === 0} loading={busy} onClick={() => void remove()}>
            {t('variablesConfig.overrides_delete', { count: selected.size })}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}
