import { DEVICE_MENU_ACTIONS } from '@flotilla/model';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { removeDevice, runDeviceAction, useInvalidateFleetDevices } from '../api/device-mutations';
import { actionDisabledReason, batchOutcome, confirmList, contractSupportsBlink, isUpdateLocked, type DisabledReason } from '../device-rules';

// Dialogs load when first opened: they keep the form and dialog code off the table's first page.
const TypeToConfirmDialog = lazy(async () => ({ default: (await import('../../../components/type-to-confirm-dialog')).TypeToConfirmDialog }));
const UpdateLockDialog = lazy(async () => ({ default: (await import('./update-lock-dialog')).UpdateLockDialog }));
const GroupUpdateDialog = lazy(async () => ({ default: (await import('./device-os/group-update-dialog')).GroupUpdateDialog }));

/** Spec 2 §2 device settings' group updates: host OS and supervisor, on the selected devices. */
const GROUP_UPDATES = ['os', 'supervisor'] as const;
type GroupUpdate = (typeof GROUP_UPDATES)[number];

export interface SelectedDevice {
  id: number;
  uuid: string;
  device_name: string;
}

/** The batch actions of the device table (the brief's set of spec 2 §2's actions menu). */
const BATCH_ACTIONS = ['identify', 'reboot', 'shutdown', 'delete'] as const;
type BatchAction = (typeof BATCH_ACTIONS)[number];

interface Props {
  fleetId: number;
  selected: SelectedDevice[];
  can: (permission: string) => boolean;
  onDone: () => void;
}

export function DeviceBatchActions({ fleetId, selected, can, onDone }: Props) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const invalidate = useInvalidateFleetDevices(fleetId);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState<'reboot' | 'shutdown' | 'delete' | null>(null);
  const [locked, setLocked] = useState<{ action: 'reboot' | 'shutdown'; devices: SelectedDevice[] } | null>(null);
  const [groupUpdate, setGroupUpdate] = useState<{ kind: GroupUpdate; deviceIds: number[] } | null>(null);
  const canUpdate = can('resin.device.update');

  const label = (a: BatchAction) => t(a === 'delete' ? 'devices.action_delete' : `devices.action_${a}`);
  const allowed = (a: BatchAction) => can(a === 'delete' ? 'resin.device.delete' : DEVICE_MENU_ACTIONS[a].permission);

  const call = (a: BatchAction, d: SelectedDevice, force = false) =>
    a === 'delete' ? removeDevice(d.id) : runDeviceAction({ id: d.id, uuid: d.uuid, appId: fleetId }, a, force);

  /**
   * Spec 2 §4 disabled reasons, per device (at most 10 checks at once, results reused for
   * 5000 ms): a device the action is not available for is not called and counts as failed
   * with its reason. The checker loads with the first batch action, off the table's first page.
   */
  const reasonsFor = async (a: BatchAction, devices: SelectedDevice[]): Promise<(string | undefined)[]> => {
    if (a === 'delete') return devices.map(() => undefined);
    const { checkBatchReasons } = await import('../api/device-action-facts');
    const reasons = await checkBatchReasons(a, devices.map((d) => d.id), allowed(a), (action, f) =>
      actionDisabledReason(action, { is_online: f.is_online, overall_status: f.overall_status, supportsBlink: contractSupportsBlink(f.contract), allowed: true }),
    );
    return devices.map((d) => reasons.get(d.id));
  };

  /** Runs `a` on every device and reports as spec 2 §4 says; update-locked ones may be forced. */
  const run = async (a: BatchAction, devices: SelectedDevice[], force = false) => {
    let reasons: (string | undefined)[];
    try {
      reasons = force ? devices.map(() => undefined) : await reasonsFor(a, devices);
    } catch (err) {
      enqueueSnackbar(errorMessage(err, t), { variant: 'error' });
      return;
    }
    const results = await Promise.allSettled(
      devices.map((d, i) => {
        const reason = reasons[i];
        return reason ? Promise.reject(new Error(t(`devices.${reason as DisabledReason}`))) : call(a, d, force);
      }),
    );
    const outcome = batchOutcome(results);
    if (outcome.kind === 'success') enqueueSnackbar(t('devices.operation_completed'), { variant: 'success' });
    else if (outcome.kind === 'partial') enqueueSnackbar(t('devices.operation_failed_for', { count: outcome.failed }), { variant: 'warning' });
    else enqueueSnackbar(errorMessage(outcome.error, t), { variant: 'error' });
    const lockedDevices = devices.filter((_, i) => {
      const r = results[i];
      return r?.status === 'rejected' && isUpdateLocked(r.reason);
    });
    if (!force && lockedDevices.length > 0 && (a === 'reboot' || a === 'shutdown')) setLocked({ action: a, devices: lockedDevices });
    await invalidate();
    if (a === 'delete') onDone();
  };

  // Spec 2 §5: everything but identify is destructive and confirmed by typing the count.
  const choose = (a: BatchAction) => {
    setAnchor(null);
    if (selected.length === 0) {
      enqueueSnackbar(t('devices.no_selected'), { variant: 'info' });
      return;
    }
    if (a === 'identify') void run(a, selected);
    else setConfirming(a);
  };

  const chooseGroupUpdate = (kind: GroupUpdate) => {
    setAnchor(null);
    if (selected.length === 0) {
      enqueueSnackbar(t('devices.no_selected'), { variant: 'info' });
      return;
    }
    setGroupUpdate({ kind, deviceIds: selected.map((d) => d.id) });
  };

  const { shown, more } = confirmList(selected);
  return (
    <>
      <Button variant="outlined" aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        {t('devices.actions')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': t('devices.batch_actions') } }}>
        {BATCH_ACTIONS.map((a) => (
          <MenuItem key={a} disabled={!allowed(a)} onClick={() => choose(a)} title={allowed(a) ? undefined : t('devices.permission_denied')}>
            {label(a)}
          </MenuItem>
        ))}
        {GROUP_UPDATES.map((kind) => (
          <MenuItem key={kind} disabled={!canUpdate} onClick={() => chooseGroupUpdate(kind)} title={canUpdate ? undefined : t('devices.permission_denied')}>
            {t(`devices.action_${kind}_update`)}
          </MenuItem>
        ))}
      </Menu>
      <Suspense fallback={null}>
        {confirming ? (
          <TypeToConfirmDialog
            title={t('devices.confirm_title', { action: label(confirming), count: selected.length })}
            warning={`${t(`devices.confirm_warning_${confirming}`)} ${shown.map((d) => d.device_name).join(', ')}${more > 0 ? ` ${t('devices.confirm_more', { count: more })}` : ''}`}
            expected={String(selected.length)}
            label={t('devices.confirm_label', { expected: selected.length })}
            hint={t('devices.confirm_hint')}
            emptyHint={t('devices.confirm_empty')}
            submitLabel={label(confirming)}
            inputId="device-batch-confirm"
            onConfirm={async () => {
              const a = confirming;
              setConfirming(null);
              await run(a, selected);
            }}
            onClose={() => setConfirming(null)}
          />
        ) : null}
        {locked ? (
          <UpdateLockDialog
            action={label(locked.action)}
            message={t('devices.update_lock_batch')}
            onForce={async () => {
              const { action, devices } = locked;
              setLocked(null);
              await run(action, devices, true);
            }}
            onClose={() => setLocked(null)}
          />
        ) : null}
        {groupUpdate ? <GroupUpdateDialog kind={groupUpdate.kind} fleetId={fleetId} deviceIds={groupUpdate.deviceIds} onClose={() => setGroupUpdate(null)} /> : null}
      </Suspense>
      <Typography component="span" color="text.secondary" sx={{ alignSelf: 'center' }}>
        {t('devices.selected', { count: selected.length })}
      </Typography>
    </>
  );
}
