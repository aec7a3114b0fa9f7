import { Alert, Button, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocsLink } from '../../../components/docs-link';
import { FullPageError } from '../../../components/full-page-status';
import { AddIcon } from '../../../components/icons';
import { useNotify } from '../../../lib/notify';
import { useDeviceVariables, writeDeviceVariable, type DeviceRef } from '../api/device-variables';
import { variablesRootKey } from '../api/keys';
import type { VariableDialogMode } from '../components/variable-dialog';
import { VariablesTable, type DisplayRow } from '../components/variables-table';
import { StagingBar, usePendingChangesGuard, useStaging } from '../staging';
import { useApplyErrorText } from '../use-apply-error-text';
import { ALL_SERVICES, byNameAndService, sameVariable, slotOf, variableKey, type VariableRow } from '../variable-row';
import { effectiveVariablesKey } from '../effective/effective-api';
import { deviceVariableHistory, fleetVariableHistory } from '../history/history-targets';
import '../i18n';

// The dialog loads when first opened: the page's first paint stays small.
const VariableDialog = lazy(async () => ({ default: (await import('../components/variable-dialog')).VariableDialog }));
// "What this device gets" loads after the table (its own chunk and query).
const EffectiveVariablesPanel = lazy(async () => ({ default: (await import('../effective/effective-panel')).EffectiveVariablesPanel }));

interface DeviceVariablesPageProps {
  device: DeviceRef;
  /** Spec 2 §6: operators and up change device and device service variables. */
  canEdit: boolean;
}

/**
 * /devices/{uuid}/envvars (spec 2 §2 "Device variables page", §4 "Device pending variable
 * changes"): the device's own environment and service variables beside the fleet's values
 * they override, and the fleet variables it inherits, each of which can be overridden here.
 * Every change is staged and written on 'apply all changes'.
 */
export function DeviceVariablesPage({ device, canEdit }: DeviceVariablesPageProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const query = useDeviceVariables(device);
  const staging = useStaging<VariableRow>({ rows: query.data?.rows, keyOf: variableKey, equals: sameVariable });
  const [dialog, setDialog] = useState<{ mode: VariableDialogMode; key?: string } | undefined>();
  const errorText = useApplyErrorText();
  usePendingChangesGuard(staging.hasChanges);

  const services = useMemo(() => query.data?.services ?? [], [query.data]);
  const rows: DisplayRow[] = useMemo(() => {
    const fleetBySlot = new Map((query.data?.fleetRows ?? []).map((r) => [slotOf(r), r]));
    const own: DisplayRow[] = staging.rows.map((r) => ({
      key: r.key,
      row: r.value,
      state: r.state,
      error: r.error,
      fleetValue: fleetBySlot.get(slotOf(r.value))?.value,
    }));
    const overridden = new Set(staging.rows.map((r) => slotOf(r.value)));
    const inherited: DisplayRow[] = (query.data?.fleetRows ?? [])
      .filter((r) => !overridden.has(slotOf(r)))
      .map((r) => ({
        key: `fleet:${variableKey(r)}`,
        row: r,
        state: 'unchanged',
        inherited: true,
        fleetValue: r.value,
        // A fleet service variable can be overridden only where that service is installed on the device.
        overridable: r.serviceId === ALL_SERVICES || services.some((s) => s.id === r.serviceId),
      }));
    return [...own, ...inherited].sort((a, b) => byNameAndService(a.row, b.row));
  }, [query.data, staging.rows, services]);
  // The device's own slots: a device variable of the same name and service is a duplicate.
  const taken = useMemo(() => new Set(staging.rows.map((r) => slotOf(r.value))), [staging.rows]);

  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: variablesRootKey }),
        queryClient.invalidateQueries({ queryKey: effectiveVariablesKey(device.uuid) }),
      ]),
    [queryClient, device.uuid],
  );
  const applyAll = async () => {
    const outcome = await staging.applyAll((write) => writeDeviceVariable(device.id, write), { errorText, refresh });
    if (outcome.failed === 0) notify.success(t('staging.applied'));
  };

  if (query.isError) return <FullPageError message={t('variables.load_failed')} onRetry={() => void query.refetch()} />;
  return (
    <Stack component="section" aria-label={t('variables.device_title')} spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="h6" component="h2">
          {t('variables.device_title')}
        </Typography>
        {canEdit ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ mode: { kind: 'add' } })} disabled={staging.applying || query.isPending}>
            {t('variables.add')}
          </Button>
        ) : null}
      </Stack>
      <Typography color="text.secondary">
        {t('variables.device_intro')} <DocsLink page="variables">{t('variables.docs')}</DocsLink>
      </Typography>
      {!canEdit ? <Alert severity="info">{t('variables.read_only')}</Alert> : null}
      {query.isPending ? (
        <VariablesTable rows={undefined} canEdit={false} busy showFleetValue />
      ) : rows.length === 0 ? (
        <Typography color="text.secondary">{t('variables.empty_device')}</Typography>
      ) : (
        <VariablesTable
          rows={rows}
          canEdit={canEdit}
          busy={staging.applying}
          showFleetValue
          onEdit={(d) => setDialog({ mode: { kind: 'edit', row: d.row }, key: d.key })}
          onDelete={(d) => staging.remove(d.key)}
          onUndo={canEdit ? (d) => staging.undo(d.key) : undefined}
          onOverwrite={(d) => setDialog({ mode: { kind: 'overwrite', row: d.row } })}
          historyOf={(d) => (d.inherited ? fleetVariableHistory(device.fleetId, d.row) : deviceVariableHistory(device.fleetId, device.id, d.row))}
        />
      )}
      {canEdit ? (
        <StagingBar
          pending={staging.pending}
          applying={staging.applying}
          someFailed={staging.someFailed}
          onRevertAll={staging.revertAll}
          onApplyAll={() => void applyAll()}
        />
      ) : null}
      <Suspense fallback={null}>
        <EffectiveVariablesPanel uuid={device.uuid} />
      </Suspense>
      {dialog ? (
        <Suspense fallback={null}>
          <VariableDialog
            mode={dialog.mode}
            services={services}
            taken={taken}
            onClose={() => setDialog(undefined)}
            onSubmit={({ name, value, service }) => {
              const { mode, key } = dialog;
              if (mode.kind === 'edit') {
                if (key !== undefined) staging.update(key, { ...mode.row, value });
                return;
              }
              const installed = service && services.find((s) => s.id === service.id);
              staging.add({
                id: 0,
                name,
                value,
                serviceId: service?.id ?? ALL_SERVICES,
                serviceName: service?.name ?? '',
                ...(installed?.serviceInstallId !== undefined ? { serviceInstallId: installed.serviceInstallId } : {}),
              });
            }}
          />
        </Suspense>
      ) : null}
    </Stack>
  );
}
