import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SettingRow } from '../../../components/setting-row';
import { runDeviceAction } from '../../../lib/device-action-api';
import { contractSupportsBlink, deviceActionKey, isUpdateLocked, type DeviceAction } from '../../../lib/device-action-rules';
import { useRunMutation } from '../../../lib/notify';
import { paths } from '../../../lib/paths';
import { sdk } from '../../../lib/sdk';
import { useLocalMode } from '../api/device-actions-facts';
import { confirmationOf, PAGE_ACTIONS, pageActionReason, type PageAction } from '../actions-page-rules';
import '../i18n';

// The dialogs load when first asked for: the page's first paint stays small.
const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));
const TypeToConfirmDialog = lazy(async () => ({ default: (await import('../../../components/type-to-confirm-dialog')).TypeToConfirmDialog }));
const UpdateLockDialog = lazy(async () => ({ default: (await import('../../../components/update-lock-dialog')).UpdateLockDialog }));

/** What the actions page reads of the device (the shell's device has more). */
export interface ActionsPageDevice {
  id: number;
  uuid: string;
  device_name: string;
  is_online: boolean;
  overall_status: string | null;
  fleet: { id: number };
  deviceType: { contract: unknown };
}

/**
 * /devices/{uuid}/actions (spec 2 §2): identify, restart services, reboot, shutdown, purge
 * data and delete, each with what it does and, when it cannot run, why (§4). Reboot and
 * shutdown ask yes/no, purge and delete ask for the device's name (§5); a device whose update
 * lock refuses (423) offers to force; each ends in a success or danger toast. The server
 * checks every right and rule again.
 */
export function DeviceActionsPage({ device, can }: { device: ActionsPageDevice; can: (permission: string) => boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const runMutation = useRunMutation();
  const { enqueueSnackbar } = useSnackbar();
  const localMode = useLocalMode(device.uuid);
  const [confirming, setConfirming] = useState<PageAction | null>(null);
  const [locked, setLocked] = useState<DeviceAction | null>(null);
  const target = { id: device.id, uuid: device.uuid, appId: device.fleet.id };
  // The device's one action key: the services card (and the menu) wait while this runs (spec 2 §5).
  const send = useMutation({
    mutationKey: deviceActionKey(device.uuid),
    mutationFn: ({ action, force }: { action: DeviceAction; force: boolean }) => runDeviceAction(target, action, force),
  });
  const facts = {
    is_online: device.is_online,
    overall_status: device.overall_status,
    supportsBlink: contractSupportsBlink(device.deviceType.contract),
    localMode: localMode.data ?? false,
    can,
  };
  const label = (action: PageAction) => t(`devices.action_${action}`);

  // A progress toast when the action leaves, then the result's toast (spec 2 §2 actions page).
  const run = (action: DeviceAction, force = false) =>
    runMutation(
      () => {
        enqueueSnackbar(t('deviceActions.in_progress', { action: label(action) }), { variant: 'info' });
        return send.mutateAsync({ action, force });
      },
      {
        success: t('devices.action_done', { action: label(action) }),
        // Spec 2 §4: 'action blocked by update lock', then the offer to force it.
        onError: (err) => !force && isUpdateLocked(err) && (setLocked(action), true),
      },
    );
  const start = (action: PageAction) => {
    if (confirmationOf(action)) setConfirming(action);
    else void run(action as DeviceAction);
  };
  const runConfirmed = async () => {
    const action = confirming;
    setConfirming(null);
    if (action && action !== 'delete') await run(action);
  };

  return (
    <Paper variant="outlined" sx={{ px: 2 }} component="section" aria-label={t('deviceActions.title')}>
      {PAGE_ACTIONS.map((action) => {
        const reason = pageActionReason(action, facts);
        const busy = action !== 'delete' && send.isPending && send.variables?.action === action;
        const button = (
          <Button
            variant="outlined"
            color={action === 'delete' || action === 'purge' ? 'error' : 'primary'}
            disabled={reason !== undefined || send.isPending}
            loading={busy}
            onClick={() => start(action)}
          >
            {label(action)}
          </Button>
        );
        return (
          <SettingRow key={action} title={label(action)} description={t(`deviceActions.description_${action}`)}>
            {reason ? (
              <Tooltip title={t(`devices.${reason}`)} describeChild>
                <span>{button}</span>
              </Tooltip>
            ) : (
              button
            )}
            {reason ? (
              <Typography variant="body2" color="text.secondary" data-testid={`reason-${action}`}>
                {t(`devices.${reason}`)}
              </Typography>
            ) : null}
          </SettingRow>
        );
      })}
      {confirming === 'reboot' || confirming === 'shutdown' ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            title={t(`devices.action_confirm_${confirming}_title`, { name: device.device_name })}
            body={t(`devices.action_confirm_${confirming}_body`)}
            confirmLabel={label(confirming)}
            onConfirm={runConfirmed}
            onClose={() => setConfirming(null)}
          />
        </Suspense>
      ) : null}
      {confirming === 'purge' ? (
        <Suspense fallback={null}>
          <TypeToConfirmDialog
            title={t('devices.action_confirm_purge_title', { name: device.device_name })}
            warning={t('devices.action_confirm_purge_warning')}
            expected={device.device_name}
            label={t('devices.settings_delete_label', { name: device.device_name })}
            hint={t('devices.action_confirm_purge_hint')}
            emptyHint={t('devices.confirm_empty')}
            submitLabel={label('purge')}
            inputId="device-actions-purge-confirm"
            onConfirm={runConfirmed}
            onClose={() => setConfirming(null)}
          />
        </Suspense>
      ) : null}
      {confirming === 'delete' ? (
        <Suspense fallback={null}>
          <TypeToConfirmDialog
            title={t('devices.settings_delete_title', { name: device.device_name })}
            warning={t('devices.settings_delete_warning')}
            expected={device.device_name}
            label={t('devices.settings_delete_label', { name: device.device_name })}
            hint={t('devices.settings_delete_hint')}
            emptyHint={t('devices.confirm_empty')}
            submitLabel={label('delete')}
            inputId="device-actions-delete-confirm"
            onConfirm={() => sdk.models.device.remove(device.uuid)}
            success={t('deviceActions.deleted')}
            onSuccess={() =>
              // Spec 2 §2: after deleting a device the user goes to /fleets/{id}; the device's
              // cached queries go too, so a refetch does not redirect to / first.
              void Promise.resolve(navigate(paths.application('fleet', device.fleet.id))).then(() => {
                queryClient.removeQueries({ queryKey: ['device', device.uuid] });
                void queryClient.invalidateQueries({ queryKey: ['fleet', device.fleet.id] });
              })
            }
            onClose={() => setConfirming(null)}
          />
        </Suspense>
      ) : null}
      {locked ? (
        <Suspense fallback={null}>
          <UpdateLockDialog
            action={label(locked)}
            onForce={async () => {
              const action = locked;
              setLocked(null);
              await run(action, true);
            }}
            onClose={() => setLocked(null)}
          />
        </Suspense>
      ) : null}
    </Paper>
  );
}
