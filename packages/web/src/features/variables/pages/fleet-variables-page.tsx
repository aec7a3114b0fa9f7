import { Alert, Button, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocsLink } from '../../../components/docs-link';
import { FullPageError } from '../../../components/full-page-status';
import { AddIcon } from '../../../components/icons';
import { useNotify } from '../../../lib/notify';
import { useFleetVariables, writeFleetVariable } from '../api/fleet-variables';
import { fleetVariablesKey } from '../api/keys';
import type { VariableDialogMode } from '../components/variable-dialog';
import { VariablesTable, type DisplayRow } from '../components/variables-table';
import { StagingBar, usePendingChangesGuard, useStaging } from '../staging';
import { useApplyErrorText } from '../use-apply-error-text';
import { ALL_SERVICES, sameVariable, slotOf, variableKey, type VariableRow } from '../variable-row';
import { fleetVariableHistory } from '../history/history-targets';
import '../i18n';

// The dialogs (and the overrides dialog's queries) load when first opened: the page's first paint stays small.
const VariableDialog = lazy(async () => ({ default: (await import('../components/variable-dialog')).VariableDialog }));
const OverridesDialog = lazy(async () => ({ default: (await import('../components/overrides-dialog')).OverridesDialog }));

interface FleetVariablesPageProps {
  fleetId: number;
  /** Spec 2 §6: developers and administrators change fleet and service variables. */
  canEdit: boolean;
  /** Operators and up delete device overrides. */
  canDeleteOverrides: boolean;
}

/**
 * /fleets/{id}/envvars (spec 2 §2 "Fleet variables page", §4 staging): environment and
 * service variables in one table; adds, edits and deletes are staged per row and written on
 * 'apply all changes'; each row opens the devices that override it.
 */
export function FleetVariablesPage({ fleetId, canEdit, canDeleteOverrides }: FleetVariablesPageProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const query = useFleetVariables(fleetId);
  const staging = useStaging<VariableRow>({ rows: query.data?.rows, keyOf: variableKey, equals: sameVariable });
  const [dialog, setDialog] = useState<{ mode: VariableDialogMode; key?: string } | undefined>();
  const [overridesOf, setOverridesOf] = useState<VariableRow | undefined>();
  const errorText = useApplyErrorText();
  usePendingChangesGuard(staging.hasChanges);

  const rows: DisplayRow[] = useMemo(
    () => staging.rows.map((r) => ({ key: r.key, row: r.value, state: r.state, error: r.error })),
    [staging.rows],
  );
  // Every slot (name per service) the table holds, staged deletes included (the server still has them).
  const taken = useMemo(() => new Set(staging.rows.map((r) => slotOf(r.value))), [staging.rows]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: fleetVariablesKey(fleetId) }), [queryClient, fleetId]);
  const applyAll = async () => {
    const outcome = await staging.applyAll((write) => writeFleetVariable(fleetId, write), { errorText, refresh });
    if (outcome.failed === 0) notify.success(t('staging.applied'));
  };

  if (query.isError) return <FullPageError message={t('variables.load_failed')} onRetry={() => void query.refetch()} />;
  const services = query.data?.services ?? [];
  return (
    <Stack component="section" aria-label={t('variables.fleet_title')} spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="h6" component="h2">
          {t('variables.fleet_title')}
        </Typography>
        {canEdit ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ mode: { kind: 'add' } })} disabled={staging.applying || query.isPending}>
            {t('variables.add')}
          </Button>
        ) : null}
      </Stack>
      <Typography color="text.secondary">
        {t('variables.fleet_intro')} <DocsLink page="variables">{t('variables.docs')}</DocsLink>
      </Typography>
      {!canEdit ? <Alert severity="info">{t('variables.read_only')}</Alert> : null}
      {query.isPending ? (
        <VariablesTable rows={undefined} canEdit={false} busy showFleetValue={false} />
      ) : rows.length === 0 ? (
        <Typography color="text.secondary">{t('variables.empty_fleet')}</Typography>
      ) : (
        <VariablesTable
          rows={rows}
          canEdit={canEdit}
          busy={staging.applying}
          showFleetValue={false}
          onEdit={(d) => setDialog({ mode: { kind: 'edit', row: d.row }, key: d.key })}
          onDelete={(d) => staging.remove(d.key)}
          onUndo={canEdit ? (d) => staging.undo(d.key) : undefined}
          onOverrides={(d) => setOverridesOf(d.row)}
          historyOf={(d) => fleetVariableHistory(fleetId, d.row)}
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
      {dialog ? (
        <Suspense fallback={null}>
          <VariableDialog
            mode={dialog.mode}
            services={services}
            taken={taken}
            onClose={() => setDialog(undefined)}
            onSubmit={({ name, value, service }) => {
              const { mode, key } = dialog;
              if (mode.kind === 'add') staging.add({ id: 0, name, value, serviceId: service?.id ?? ALL_SERVICES, serviceName: service?.name ?? '' });
              else if (key !== undefined) staging.update(key, { ...mode.row, value });
            }}
          />
        </Suspense>
      ) : null}
      {overridesOf ? (
        <Suspense fallback={null}>
          <OverridesDialog fleetId={fleetId} variable={overridesOf} canDelete={canDeleteOverrides} onClose={() => setOverridesOf(undefined)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
