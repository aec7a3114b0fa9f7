import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { OS_UPDATE_DEVICE_STATUS } from '@flotilla/model';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../../lib/errors';
import {
  pinSupervisorRelease,
  startOsUpdate,
  useGroupDevices,
  useOsVersionsByType,
  useSupervisorReleasesByArch,
  type GroupDeviceRow,
} from '../../api/device-os';
import { fleetDevicesKey } from '../../api/keys';
import {
  groupOsTargets,
  groupSummary,
  groupSupervisorTargets,
  osEligibility,
  runGroupUpdate,
  supervisorEligibility,
  type GroupDevice,
  type GroupOutcome,
} from '../../os-group-rules';
import { OS_UPDATE_NOT_STARTED } from '../../os-rules';
import { OS_STATE_KEY } from './os-state-keys';
import { ReleasePickDialog } from './release-pick-dialog';
import '../../i18n-os';

export type GroupUpdateKind = 'os' | 'supervisor';

/** While a group update runs, the devices are re-read this often (their progress). */
const PROGRESS_REFETCH_MS = 3_000;

/** Per device and target: `reason` (the model's words) when it may not take it; else what the confirmation needs (takeover, ESR switch, the supervisor release id). */
type Judge = (device: GroupDevice, target: string) => { reason?: string; takeover?: boolean; esrSwitch?: boolean; releaseId?: number };

interface Props {
  kind: GroupUpdateKind;
  fleetId: number;
  deviceIds: readonly number[];
  onClose: () => void;
}

/**
 * Group host OS / supervisor update from the fleet's device table (spec 2 §2, §4, §8): the
 * versions some selected device may take, each device's eligibility for the chosen one (the
 * model's classification or supervisor block, the same rules the server enforces), a
 * confirmation (takeovers need the acknowledgement), then the update on the eligible devices
 * only — at most 10 at once, a refusal never stopping the others — with each device's
 * progress and a summary: started, skipped with the reason, refused with the server's message.
 */
export function GroupUpdateDialog({ kind, fleetId, deviceIds, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [run, setRun] = useState<{ version: string; outcomes: Map<number, GroupOutcome>; done: boolean }>();
  const devices = useGroupDevices(deviceIds, run ? PROGRESS_REFETCH_MS : false);
  const rows = devices.data;
  const slugs = useMemo(() => [...new Set((rows ?? []).map((d) => d.deviceType))], [rows]);
  const arches = useMemo(() => [...new Set((rows ?? []).map((d) => d.architecture))], [rows]);
  const osCatalogue = useOsVersionsByType(kind === 'os' ? slugs : []);
  const supervisorCatalogue = useSupervisorReleasesByArch(kind === 'supervisor' ? arches : []);

  const judge: Judge | undefined = useMemo(() => {
    if (kind === 'os') {
      const byType = osCatalogue.data;
      if (!byType) return undefined;
      return (d, target) => {
        const e = osEligibility(d, target, byType.get(d.deviceType) ?? []);
        return e.eligible ? { takeover: e.takeover, esrSwitch: e.esrSwitch } : { reason: `${t(OS_STATE_KEY[e.state])}${e.reason ? ` — ${e.reason}` : ''}` };
      };
    }
    const byArch = supervisorCatalogue.data;
    if (!byArch) return undefined;
    return (d, target) => {
      const e = supervisorEligibility(d, target, byArch.get(d.architecture) ?? []);
      return e.eligible ? { releaseId: e.releaseId } : { reason: e.reason };
    };
  }, [kind, osCatalogue.data, supervisorCatalogue.data, t]);

  const targets = useMemo(() => {
    if (!rows) return undefined;
    if (kind === 'os') return osCatalogue.data ? groupOsTargets(rows, osCatalogue.data) : undefined;
    return supervisorCatalogue.data ? groupSupervisorTargets(rows, supervisorCatalogue.data) : undefined;
  }, [kind, rows, osCatalogue.data, supervisorCatalogue.data]);

  const title = t(kind === 'os' ? 'devices.group_os_title' : 'devices.group_supervisor_title');
  const failed = devices.isError ? t('devices.group_devices_failed') : osCatalogue.isError || supervisorCatalogue.isError ? t('devices.os_catalogue_failed') : undefined;

  if (run && rows) {
    return <GroupProgressDialog kind={kind} version={run.version} rows={rows} outcomes={run.outcomes} done={run.done} onClose={onClose} />;
  }
  if (!rows || !judge || !targets || failed) {
    return (
      <MessageDialog title={title} onClose={onClose}>
        {failed ? <Alert severity="error">{failed}</Alert> : <DialogContentText>{t('app.loading')}</DialogContentText>}
      </MessageDialog>
    );
  }
  if (targets.length === 0) {
    return (
      <MessageDialog title={title} onClose={onClose}>
        <Alert severity="info">{t(kind === 'os' ? 'devices.group_no_targets_os' : 'devices.group_no_targets_supervisor')}</Alert>
        <DeviceTable kind={kind} rows={rows} />
      </MessageDialog>
    );
  }

  const eligibleOf = (version: string) => rows.filter((d) => judge(d, version).reason === undefined);

  const start = async (version: string) => {
    const outcomes = new Map<number, GroupOutcome>();
    setRun({ version, outcomes, done: false });
    const call = (d: GroupDevice) => {
      if (kind === 'os') return startOsUpdate(d.uuid, version);
      return pinSupervisorRelease(d.uuid, judge(d, version).releaseId!);
    };
    const message = (err: unknown) => {
      const text = errorMessage(err, t);
      return kind === 'os' && !text.startsWith(OS_UPDATE_NOT_STARTED) ? `${OS_UPDATE_NOT_STARTED}: ${text}` : text;
    };
    await runGroupUpdate(rows, (d) => judge(d, version).reason, call, message, (o) => {
      outcomes.set(o.device.id, o);
      setRun({ version, outcomes: new Map(outcomes), done: false });
    });
    setRun({ version, outcomes: new Map(outcomes), done: true });
    await Promise.all([queryClient.invalidateQueries({ queryKey: fleetDevicesKey(fleetId) }), queryClient.invalidateQueries({ queryKey: ['device'] })]);
  };

  return (
    <ReleasePickDialog
      title={title}
      intro={t('devices.group_intro', { count: rows.length })}
      chooseLabel={t(kind === 'os' ? 'devices.os_dialog_choose' : 'devices.supervisor_dialog_choose')}
      options={targets.map((v) => ({ value: v, label: v }))}
      confirmation={(version) =>
        t(kind === 'os' ? 'devices.group_os_confirm' : 'devices.group_supervisor_confirm', { version, eligible: eligibleOf(version).length, count: rows.length })
      }
      warning={(version) => (eligibleOf(version).some((d) => judge(d, version).esrSwitch) ? t('devices.group_esr_warning') : undefined)}
      acknowledgement={(version) => (eligibleOf(version).some((d) => judge(d, version).takeover) ? t('devices.group_takeover') : undefined)}
      details={(version) => (
        <>
          {eligibleOf(version).length === 0 ? (
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('devices.group_none_eligible')}
            </Alert>
          ) : null}
          <DeviceTable kind={kind} rows={rows} cell={(d) => judge(d, version).reason ?? t('devices.group_will_update')} cellHeader={t('devices.group_col_eligibility')} />
        </>
      )}
      blocked={(version) => eligibleOf(version).length === 0}
      submitLabel={t(kind === 'os' ? 'devices.os_dialog_submit' : 'devices.supervisor_dialog_submit')}
      onSubmit={async (version) => {
        void start(version);
        return Promise.resolve();
      }}
      onClose={onClose}
    />
  );
}

function MessageDialog({ title, children, onClose }: { title: string; children: ReactNode; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The selected devices with what they run and, optionally, one more column. */
function DeviceTable({ kind, rows, cell, cellHeader }: { kind: GroupUpdateKind; rows: readonly GroupDeviceRow[]; cell?: (d: GroupDeviceRow) => ReactNode; cellHeader?: string }) {
  const { t } = useTranslation();
  return (
    <TableContainer sx={{ mt: 2, maxHeight: 360 }}>
      <Table size="small" stickyHeader aria-label={t('devices.group_devices')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('devices.group_col_device')}</TableCell>
            <TableCell>{t(kind === 'os' ? 'devices.group_col_os' : 'devices.group_col_supervisor')}</TableCell>
            {cell ? <TableCell>{cellHeader}</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((d) => (
            <TableRow key={d.id}>
              <TableCell>{d.name}</TableCell>
              <TableCell>{(kind === 'os' ? d.osVersion : d.supervisorVersion) ?? '—'}</TableCell>
              {cell ? <TableCell>{cell(d)}</TableCell> : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** What a device shows while the group update runs: its step and percentage, or the release it is told to run. */
function progressText(kind: GroupUpdateKind, d: GroupDeviceRow, t: TFunction): string {
  if (kind === 'os') {
    if (d.status === OS_UPDATE_DEVICE_STATUS) {
      return d.provisioningProgress !== null
        ? t('devices.os_update_progress', { status: d.status, step: d.provisioningState ?? '', progress: d.provisioningProgress })
        : d.status;
    }
    if (d.provisioningState) return d.provisioningState;
    return d.osRelease ? t('devices.group_release_set', { version: d.osRelease }) : '';
  }
  return d.supervisorRelease ? t('devices.group_release_set', { version: d.supervisorRelease }) : '';
}

function GroupProgressDialog(props: { kind: GroupUpdateKind; version: string; rows: readonly GroupDeviceRow[]; outcomes: ReadonlyMap<number, GroupOutcome>; done: boolean; onClose: () => void }) {
  const { kind, version, rows, outcomes, done, onClose } = props;
  const { t } = useTranslation();
  const outcomeText = (d: GroupDeviceRow) => {
    const o = outcomes.get(d.id);
    if (!o) return t('devices.group_outcome_waiting');
    if (o.status === 'started') return t('devices.group_outcome_started');
    return t(o.status === 'skipped' ? 'devices.group_outcome_skipped' : 'devices.group_outcome_refused', { reason: o.reason });
  };
  const summary = groupSummary([...outcomes.values()]);
  const titleId = useId();
  return (
    <Dialog open onClose={done ? onClose : undefined} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t(kind === 'os' ? 'devices.group_progress_os_title' : 'devices.group_progress_supervisor_title', { version })}</DialogTitle>
      <DialogContent>
        <Typography role="status" variant="body2">
          {done ? t('devices.group_summary', { started: summary.started, skipped: summary.skipped.length, refused: summary.refused.length }) : t('devices.group_running')}
        </Typography>
        <TableContainer sx={{ mt: 2, maxHeight: 420 }}>
          <Table size="small" stickyHeader aria-label={t('devices.group_devices')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('devices.group_col_device')}</TableCell>
                <TableCell>{t('devices.group_col_outcome')}</TableCell>
                <TableCell>{t(kind === 'os' ? 'devices.group_col_os' : 'devices.group_col_supervisor')}</TableCell>
                <TableCell>{t('devices.group_col_progress')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((d) => (
                <TableRow key={d.id}>
                  <TableCell>{d.name}</TableCell>
                  <TableCell>{outcomeText(d)}</TableCell>
                  <TableCell>{(kind === 'os' ? d.osVersion : d.supervisorVersion) ?? '—'}</TableCell>
                  <TableCell>{outcomes.get(d.id)?.status === 'started' ? progressText(kind, d, t) : ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={!done}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
