import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { lazy, Suspense, useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../../../components/data-table';
import { errorMessage } from '../../../../lib/errors';
import { HistoryButton } from '../../history/history-button';
import type { VariableKindResource } from '../../history/history-api';
import { StagedRowMark, usePendingChangesGuard, useStaging, type PendingWrite, type StagedRow } from '../../staging';
import { configKeys, useConfigSchema, useDeviceConfigVariables, useFleetConfigVariables, type ConfigLevel } from '../api/config-variables';
import { writeConfig } from '../api/config-writes';
import { customVariables, humanValue, isOn, isToggle, toggledValue, type SchemaProperty } from '../config-rules';
import '../i18n';

// Dialogs load when first opened; the panel after the tables (it has its own query).
const EditConfigDialog = lazy(async () => ({ default: (await import('./edit-config-dialog')).EditConfigDialog }));
const AddCustomConfigDialog = lazy(async () => ({ default: (await import('./add-custom-config-dialog')).AddCustomConfigDialog }));
const ConfigOverridesDialog = lazy(async () => ({ default: (await import('./config-overrides-dialog')).ConfigOverridesDialog }));
// The bar shows only once something is staged.
const StagingBar = lazy(async () => ({ default: (await import('../../staging/staging-bar')).StagingBar }));
const EffectiveVariablesPanel = lazy(async () => ({ default: (await import('../../effective/effective-panel')).EffectiveVariablesPanel }));

/** What a staged row holds: a configuration variable's name and value at this page's level. */
interface ConfigValue {
  /** The saved variable's id (rows from the server); none for a row added here. */
  id?: number;
  name: string;
  value: string;
}

const keyOf = (v: ConfigValue) => String(v.id);
const sameValue = (a: ConfigValue, b: ConfigValue) => a.name === b.name && a.value === b.value;

export type ConfigPageProps =
  | { level: 'fleet'; fleetId: number; deviceType: string | undefined; canEdit: boolean; canDeleteOverrides: boolean }
  | { level: 'device'; fleetId: number; deviceType: string; device: { id: number; uuid: string }; canEdit: boolean };

/** A line of either table: a variable name with its values at each level. */
interface Line {
  name: string;
  property?: SchemaProperty;
  /** The fleet's value (device page: what the device inherits). */
  fleetValue?: string;
  /** This page's row in the staging (fleet page: the fleet's; device page: the device's). */
  staged?: StagedRow<ConfigValue>;
}

/** The value at this page's level, as it will be after 'apply all' (none when deleted or unset). */
const ownValue = (line: Line) => (line.staged && line.staged.state !== 'deleted' ? line.staged.value.value : undefined);

/**
 * /fleets/{id}/config and /devices/{uuid}/config (spec 2 §2, §4): the device type's
 * whitelisted configuration variables as a form (description, enum choices, default, format,
 * will_reboot; a two-value variable toggles in place, the others open an edit dialog) and a
 * table of custom configuration variables with add-custom-configuration. Every edit is staged
 * (per-row mark and undo, a sticky bar with revert all and apply all, a leave-page warning);
 * the device page shows the fleet's value beside the device's override, the fleet page which
 * devices override a variable. Readers without the right see everything disabled.
 */
export function ConfigPage(props: ConfigPageProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { enqueueSnackbar } = useSnackbar();
  const schemaQuery = useConfigSchema(props.deviceType);
  const fleetVars = useFleetConfigVariables(props.fleetId);
  const deviceVars = useDeviceConfigVariables(props.level === 'device' ? props.device.uuid : '');
  const own = props.level === 'fleet' ? fleetVars : deviceVars;
  const staging = useStaging<ConfigValue>({ rows: own.data, keyOf, equals: sameValue });
  usePendingChangesGuard(staging.hasChanges);
  const [editing, setEditing] = useState<Line | null>(null);
  const [adding, setAdding] = useState(false);
  const [overridesOf, setOverridesOf] = useState<string | null>(null);
  const schema = useMemo(() => schemaQuery.data ?? {}, [schemaQuery.data]);

  const lines = useMemo(() => {
    const byName = new Map<string, StagedRow<ConfigValue>>();
    for (const row of staging.rows) byName.set(row.value.name, row);
    const fleetValues = new Map((fleetVars.data ?? []).map((v) => [v.name, v.value]));
    const names = new Set([...byName.keys(), ...(props.level === 'device' ? fleetValues.keys() : [])]);
    const line = (name: string): Line => ({
      name,
      property: schema[name],
      fleetValue: props.level === 'device' ? fleetValues.get(name) : undefined,
      staged: byName.get(name),
    });
    return {
      schema: Object.keys(schema).sort().map(line),
      custom: customVariables(schema, [...names].map((name) => ({ name }))).map((v) => line(v.name)),
    };
  }, [staging.rows, fleetVars.data, schema, props.level]);

  /** Stage `value` for `line` at this page's level. */
  const stage = useCallback(
    (line: Line, value: string) => {
      const row = line.staged;
      if (!row) staging.add({ name: line.name, value });
      // Setting an added row back to what applies without it is no change at all.
      else if (row.state === 'added' && value === inheritedValue(line)) staging.undo(row.key);
      else staging.update(row.key, { ...row.value, value });
    },
    [staging],
  );

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: props.level === 'fleet' ? configKeys.fleet(props.fleetId) : configKeys.device(props.device.uuid) }),
      props.level === 'device' ? queryClient.invalidateQueries({ queryKey: ['device', props.device.uuid] }) : undefined,
      queryClient.invalidateQueries({ queryKey: ['fleet', props.fleetId, 'variable-history'] }),
    ]);
  const ownerId = props.level === 'fleet' ? props.fleetId : props.device.id;
  const write = (w: PendingWrite<ConfigValue>) => {
    if (w.kind === 'added') return writeConfig(props.level, ownerId, { kind: 'create', name: w.value.name, value: w.value.value });
    if (w.kind === 'updated') return writeConfig(props.level, ownerId, { kind: 'update', id: Number(w.key), value: w.value.value });
    return writeConfig(props.level, ownerId, { kind: 'delete', id: Number(w.key) });
  };
  const applyAll = async () => {
    const outcome = await staging.applyAll(write, { errorText: (err) => errorMessage(err, t), refresh });
    if (outcome.failed === 0) enqueueSnackbar(t('staging.applied'), { variant: 'success' });
  };

  if (schemaQuery.isError || own.isError || fleetVars.isError) {
    return <Typography color="error">{t('variablesConfig.load_failed')}</Typography>;
  }
  const loading = schemaQuery.isPending || own.isPending || fleetVars.isPending;
  const historyKind: VariableKindResource = props.level === 'fleet' ? 'application_config_variable' : 'device_config_variable';
  const deviceId = props.level === 'device' ? props.device.id : null;
  const busy = staging.applying;

  const actionsOf = (line: Line): ReactNode => {
    const row = line.staged;
    const removable = row !== undefined && row.state !== 'deleted' && row.state !== 'added';
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {line.property && isToggle(line.property) ? null : (
          <Denied allowed={props.canEdit}>
            <Button size="small" disabled={!props.canEdit || busy} onClick={() => setEditing(line)} aria-label={t('variablesConfig.edit_name', { name: line.name })}>
              {t('common.edit')}
            </Button>
          </Denied>
        )}
        {removable ? (
          <Denied allowed={props.canEdit}>
            <Button
              size="small"
              color="error"
              disabled={!props.canEdit || busy}
              onClick={() => staging.remove(row.key)}
              aria-label={t(props.level === 'fleet' ? 'variablesConfig.remove_fleet_name' : 'variablesConfig.remove_device_name', { name: line.name })}
            >
              {t('common.remove')}
            </Button>
          </Denied>
        ) : null}
        {props.level === 'fleet' ? (
          <Button size="small" onClick={() => setOverridesOf(line.name)} aria-label={t('variablesConfig.overrides_name', { name: line.name })}>
            {t('variablesConfig.overrides')}
          </Button>
        ) : null}
        <HistoryButton target={{ fleetId: props.fleetId, kind: historyKind, name: line.name, deviceId }} />
      </Stack>
    );
  };

  const columns: Column<Line>[] = [
    {
      key: 'name',
      header: t('variablesConfig.name'),
      render: (line) => (
        <>
          <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {line.name}
          </Box>
          {line.property?.description ? (
            <Typography variant="body2" color="text.secondary">
              {line.property.description}
            </Typography>
          ) : null}
          {line.property?.will_reboot ? (
            <Typography variant="caption" color="warning.dark" component="div">
              {t('variablesConfig.will_reboot')}
            </Typography>
          ) : null}
        </>
      ),
    },
    {
      key: 'value',
      header: props.level === 'fleet' ? t('variablesConfig.value') : t('variablesConfig.device_value'),
      render: (line) => <ValueCell line={line} level={props.level} canEdit={props.canEdit && !busy} onToggle={stage} />,
    },
    ...(props.level === 'device'
      ? [
          {
            key: 'fleet',
            header: t('variablesConfig.fleet_value'),
            render: (line: Line) =>
              line.fleetValue !== undefined ? (
                <FormattedValue property={line.property} value={line.fleetValue} />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {t('variablesConfig.not_set')}
                </Typography>
              ),
          },
        ]
      : []),
    {
      key: 'change',
      header: t('variablesConfig.change'),
      render: (line) =>
        line.staged ? (
          <StagedRowMark state={line.staged.state} name={line.name} error={line.staged.error} onUndo={() => staging.undo(line.staged!.key)} disabled={busy} />
        ) : null,
    },
    { key: 'actions', header: t('variablesConfig.actions'), render: actionsOf },
  ];

  const existingCustom = lines.custom.filter((l) => ownValue(l) !== undefined || l.staged?.state === 'deleted').map((l) => l.name);
  return (
    <Stack spacing={3}>
      <Section title={t('variablesConfig.schema_title')} intro={t(props.level === 'fleet' ? 'variablesConfig.schema_intro_fleet' : 'variablesConfig.schema_intro_device')}>
        {!loading && lines.schema.length === 0 ? (
          <Typography color="text.secondary">{t('variablesConfig.schema_empty')}</Typography>
        ) : (
          <DataTable label={t('variablesConfig.schema_title')} columns={columns} rows={loading ? undefined : lines.schema} getRowKey={(l) => l.name} loading={loading} />
        )}
      </Section>
      <Section
        title={t('variablesConfig.custom_title')}
        intro={t('variablesConfig.custom_intro')}
        action={
          <Denied allowed={props.canEdit}>
            <Button variant="outlined" disabled={!props.canEdit || busy || loading} onClick={() => setAdding(true)}>
              {t('variablesConfig.add_custom')}
            </Button>
          </Denied>
        }
      >
        {!loading && lines.custom.length === 0 ? (
          <Typography color="text.secondary">{t('variablesConfig.custom_empty')}</Typography>
        ) : (
          <DataTable label={t('variablesConfig.custom_title')} columns={columns} rows={loading ? undefined : lines.custom} getRowKey={(l) => l.name} loading={loading} />
        )}
      </Section>
      {staging.pending > 0 || staging.someFailed ? (
        <Suspense fallback={null}>
          <StagingBar pending={staging.pending} applying={staging.applying} someFailed={staging.someFailed} onRevertAll={staging.revertAll} onApplyAll={() => void applyAll()} />
        </Suspense>
      ) : null}
      {props.level === 'device' ? (
        <Suspense fallback={null}>
          <EffectiveVariablesPanel uuid={props.device.uuid} />
        </Suspense>
      ) : null}
      <Suspense fallback={null}>
        {editing ? (
          <EditConfigDialog
            name={editing.name}
            property={editing.property}
            initial={ownValue(editing) ?? inheritedValue(editing) ?? ''}
            onSubmit={(value) => {
              stage(editing, value);
              setEditing(null);
            }}
            onClose={() => setEditing(null)}
          />
        ) : null}
        {adding ? (
          <AddCustomConfigDialog
            existing={existingCustom}
            schema={schema}
            onSubmit={({ name, value }) => {
              const line = lines.custom.find((l) => l.name === name);
              if (line) stage(line, value);
              else staging.add({ name, value });
              setAdding(false);
            }}
            onClose={() => setAdding(false)}
          />
        ) : null}
        {overridesOf !== null && props.level === 'fleet' ? (
          <ConfigOverridesDialog fleetId={props.fleetId} name={overridesOf} canDelete={props.canDeleteOverrides} onClose={() => setOverridesOf(null)} />
        ) : null}
      </Suspense>
    </Stack>
  );
}

/**
 * Spec 2 §6: a control the user may not use stays visible, disabled, with the denial text as
 * a tooltip — the browser's own (`title`), as RelativeTime does: MUI's Tooltip would add its
 * Popper (~12 kB gzip) to these pages' first load, over the 350 kB budget.
 */
function Denied({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  if (allowed) return <>{children}</>;
  return (
    <Box component="span" title={t('permission_denied')} sx={{ display: 'inline-flex' }}>
      {children}
    </Box>
  );
}

/** What the variable is without a value at this page's level: the fleet's (device page), else the schema default. */
function inheritedValue(line: Line): string | undefined {
  return line.fleetValue ?? line.property?.default;
}

function Section({ title, intro, action, children }: { title: string; intro: string; action?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 2 }}>
        <div>
          <Typography id={headingId} variant="h6" component="h2">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {intro}
          </Typography>
        </div>
        {action}
      </Stack>
      {children}
    </Paper>
  );
}

function FormattedValue({ property, value }: { property: SchemaProperty | undefined; value: string }) {
  const human = property ? humanValue(property, value) : undefined;
  return (
    <>
      <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {value}
      </Box>
      {human ? (
        <Typography variant="caption" color="text.secondary" component="div">
          {human}
        </Typography>
      ) : null}
    </>
  );
}

/**
 * The value at this page's level, or what applies without one (the fleet's value on the
 * device page, or the schema default, marked as such); a two-value variable is a switch.
 */
function ValueCell({ line, level, canEdit, onToggle }: { line: Line; level: ConfigLevel; canEdit: boolean; onToggle: (line: Line, value: string) => void }) {
  const { t } = useTranslation();
  const own = ownValue(line);
  const inherited = level === 'device' ? line.fleetValue : undefined;
  const shown = own ?? inherited ?? line.property?.default;
  const marker =
    own !== undefined ? null : inherited !== undefined ? t('variablesConfig.from_fleet') : line.property?.default !== undefined ? t('variablesConfig.default') : null;
  const property = line.property;
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      {property && isToggle(property) ? (
        <Denied allowed={canEdit}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Switch
              size="small"
              checked={isOn(property, shown)}
              disabled={!canEdit}
              onChange={() => onToggle(line, toggledValue(property, shown))}
              slotProps={{ input: { 'aria-label': line.name } }}
            />
            <Box component="span" sx={{ fontFamily: 'monospace' }}>
              {shown ?? ''}
            </Box>
          </Stack>
        </Denied>
      ) : shown !== undefined ? (
        <FormattedValue property={property} value={shown} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('variablesConfig.not_set')}
        </Typography>
      )}
      {marker ? <Chip size="small" variant="outlined" label={marker} /> : null}
      {property?.enum && !isToggle(property) ? (
        <Typography variant="caption" color="text.secondary">
          {t('variablesConfig.choices', { choices: property.enum.join(', ') })}
        </Typography>
      ) : null}
    </Stack>
  );
}
