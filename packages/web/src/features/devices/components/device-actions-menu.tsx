import { DEVICE_MENU_ACTIONS, type DeviceMenuActionDef } from '@flotilla/model';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useMutation } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunMutation } from '../../../lib/notify';
import type { DeviceDetails } from '../api/get-device';
import { runDeviceAction } from '../api/device-mutations';
import { deviceActionKey } from '../api/keys';
import { actionDisabledReason, contractSupportsBlink, DEVICE_ACTIONS, isUpdateLocked, type DeviceAction } from '../device-rules';

// Loads when a device first answers 423: dialog code stays off the device page's first load.
const UpdateLockDialog = lazy(async () => ({ default: (await import('./update-lock-dialog')).UpdateLockDialog }));
// The confirmations load when first asked for, for the same reason.
const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));
const TypeToConfirmDialog = lazy(async () => ({ default: (await import('../../../components/type-to-confirm-dialog')).TypeToConfirmDialog }));


/** Spec 2 §5 destructive confirmations (the model's): purge by typing the name, reboot and shutdown by a yes/no. */
const confirmOf = (action: DeviceAction): DeviceMenuActionDef['confirm'] => (DEVICE_MENU_ACTIONS[action] as DeviceMenuActionDef).confirm;

/**
 * The device's actions menu (spec 2 §2): each action disabled with the spec's reason (§4),
 * a refusal shown as a danger toast, and a 423 as 'action blocked by update lock' with an
 * offer to force.
 */
export function DeviceActionsMenu({ device, can }: { device: DeviceDetails; can: (permission: string) => boolean }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const runMutation = useRunMutation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [locked, setLocked] = useState<DeviceAction | null>(null);
  const [confirming, setConfirming] = useState<DeviceAction | null>(null);
  const target = { id: device.id, uuid: device.uuid, appId: device.fleet.id };
  const supportsBlink = contractSupportsBlink(device.deviceType.contract);
  // Shares the device's action key: the services card waits while one is in flight (spec 2 §5).
  const send = useMutation({
    mutationKey: deviceActionKey(device.uuid),
    mutationFn: ({ action, force }: { action: DeviceAction; force: boolean }) => runDeviceAction(target, action, force),
  });

  const run = (action: DeviceAction, force = false) =>
    runMutation(() => send.mutateAsync({ action, force }), {
      success: t('devices.action_done', { action: t(`devices.action_${action}`) }),
      // An update-locked device asks whether to force it (spec 2 §5) instead of failing.
      onError: (err) => !force && isUpdateLocked(err) && (setLocked(action), true),
    });
  /** The confirmation dialogs' OK: closes the dialog, then runs the action it asked about. */
  const runConfirmed = async () => {
    const action = confirming;
    setConfirming(null);
    if (action) await run(action);
  };

  return (
    <>
      <Button variant="outlined" aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        {t('devices.actions')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': t('devices.actions') } }}>
        {DEVICE_ACTIONS.map((action) => {
          const reason = actionDisabledReason(action, {
            is_online: device.is_online,
            overall_status: device.overall_status,
            supportsBlink,
            allowed: can(DEVICE_MENU_ACTIONS[action].permission),
            frozen: device.is_frozen === true,
          });
          return (
            <MenuItem
              key={action}
              // A disabled item would hide its reason from pointer and screen reader alike;
              // it stays focusable and says why instead of calling the device.
              aria-disabled={reason !== undefined}
              sx={reason ? { opacity: 0.6 } : undefined}
              onClick={() => {
                setAnchor(null);
                if (reason) enqueueSnackbar(t(`devices.${reason}`), { variant: 'info' });
                else if (confirmOf(action)) setConfirming(action);
                else void run(action);
              }}
            >
              <ListItemText primary={t(`devices.action_${action}`)} secondary={reason ? t(`devices.${reason}`) : undefined} />
            </MenuItem>
          );
        })}
      </Menu>
      {confirming && confirmOf(confirming) === 'yes-no' ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            title={t(`devices.action_confirm_${confirming as 'reboot' | 'shutdown'}_title`, { name: device.device_name })}
            body={t(`devices.action_confirm_${confirming as 'reboot' | 'shutdown'}_body`)}
            confirmLabel={t(`devices.action_${confirming}`)}
            onConfirm={runConfirmed}
            onClose={() => setConfirming(null)}
          />
        </Suspense>
      ) : null}
      {confirming && confirmOf(confirming) === 'type-name' ? (
        <Suspense fallback={null}>
          <TypeToConfirmDialog
            title={t('devices.action_confirm_purge_title', { name: device.device_name })}
            warning={t('devices.action_confirm_purge_warning')}
            expected={device.device_name}
            label={t('devices.settings_delete_label', { name: device.device_name })}
            hint={t('devices.action_confirm_purge_hint')}
            emptyHint={t('devices.confirm_empty')}
            submitLabel={t(`devices.action_${confirming}`)}
            inputId="device-action-confirm"
            onConfirm={runConfirmed}
            onClose={() => setConfirming(null)}
          />
        </Suspense>
      ) : null}
      {locked ? (
        <Suspense fallback={null}>
          <UpdateLockDialog
            action={t(`devices.action_${locked}`)}
            onForce={async () => {
              const action = locked;
              setLocked(null);
              await run(action, true);
            }}
            onClose={() => setLocked(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
