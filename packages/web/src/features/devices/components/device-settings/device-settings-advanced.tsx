import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import { useRunMutation } from '../../../../lib/notify';
import { sdk } from '../../../../lib/sdk';
import type { FleetAccess } from '../../../../lib/fleet-access';
import { useDeviceSettingsChange, type DeviceSettingsFacts } from '../../api/device-settings';
import type { DeviceDetails } from '../../api/get-device';
import { deviceKey, fleetDevicesKey } from '../../api/keys';
import { deactivationProblem, deviceFeature, formatCents } from '@flotilla/model';
import { useOrganizationPlan } from '../../../../lib/organization-plan';
import { deactivateUnavailable, localModeUnavailable } from '../../device-settings-rules';
import { DeviceMoveSetting } from './device-move-setting';
import { SettingRow } from '../../../../components/setting-row';
import { paths } from '../../../../lib/paths';

// The typed confirmation loads when first opened (the first-page budget).
const TypeToConfirmDialog = lazy(async () => ({ default: (await import('../../../../components/type-to-confirm-dialog')).TypeToConfirmDialog }));

/** The settings below support access (spec 2 §2): public URL, move, local mode, deactivate, delete. */
export function DeviceSettingsAdvanced({ device, facts, access }: { device: DeviceDetails; facts: DeviceSettingsFacts; access: FleetAccess }) {
  const canUpdate = access.can('resin.device.update');
  return (
    <>
      <PublicUrlSetting device={device} facts={facts} canUpdate={canUpdate} />
      <DeviceMoveSetting device={device} architecture={facts.architecture} canUpdate={canUpdate} />
      <LocalModeSetting device={device} facts={facts} canConfigure={access.can('resin.device_config_variable.create')} />
      <DeactivateSetting device={device} canUpdate={canUpdate} />
      <DeleteSetting device={device} canDelete={access.can('resin.device.delete')} />
    </>
  );
}

/** A labelled switch whose change runs `write`, disabled with a reason or the permission tooltip. */
function SettingSwitch(props: { label: string; checked: boolean; allowed: boolean; reason?: string | undefined; onChange: (on: boolean) => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const control = (
    <FormControlLabel
      label={props.label}
      control={
        <Switch
          checked={props.checked}
          disabled={!props.allowed || props.reason !== undefined || busy}
          onChange={(e) => {
            setBusy(true);
            void props.onChange(e.target.checked).finally(() => setBusy(false));
          }}
        />
      }
    />
  );
  return <PermissionTooltip allowed={props.allowed}>{control}</PermissionTooltip>;
}

function PublicUrlSetting({ device, facts, canUpdate }: { device: DeviceDetails; facts: DeviceSettingsFacts; canUpdate: boolean }) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const change = useDeviceSettingsChange(device.uuid);
  return (
    <SettingRow title={t('devices.settings_public_url')} description={t('devices.settings_public_url_description')}>
      <SettingSwitch
        label={t('devices.settings_public_url_switch')}
        checked={facts.is_web_accessible}
        allowed={canUpdate}
        onChange={(on) =>
          run(() => change.mutateAsync(() => (on ? sdk.models.device.enableDeviceUrl(device.uuid) : sdk.models.device.disableDeviceUrl(device.uuid))), {
            success: t(on ? 'devices.settings_public_url_on' : 'devices.settings_public_url_off'),
          })
        }
      />
    </SettingRow>
  );
}

function LocalModeSetting({ device, facts, canConfigure }: { device: DeviceDetails; facts: DeviceSettingsFacts; canConfigure: boolean }) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const change = useDeviceSettingsChange(device.uuid);
  const reason = localModeUnavailable(device);
  return (
    <SettingRow title={t('devices.settings_local_mode')} description={t('devices.settings_local_mode_description')}>
      <SettingSwitch
        label={t('devices.settings_local_mode_switch')}
        checked={facts.localMode}
        allowed={canConfigure}
        // Turning it off stays possible for a device that no longer qualifies.
        reason={reason && !facts.localMode ? reason : undefined}
        onChange={(on) =>
          run(() => change.mutateAsync(() => (on ? sdk.models.device.enableLocalMode(device.uuid) : sdk.models.device.disableLocalMode(device.uuid))), {
            success: t(on ? 'devices.settings_local_mode_on' : 'devices.settings_local_mode_off'),
          })
        }
      />
      {reason && !facts.localMode ? <Typography variant="body2" color="text.secondary">{t(`devices.${reason}`)}</Typography> : null}
    </SettingRow>
  );
}

function DeactivateSetting({ device, canUpdate }: { device: DeviceDetails; canUpdate: boolean }) {
  const { t } = useTranslation();
  const change = useDeviceSettingsChange(device.uuid);
  const [confirming, setConfirming] = useState(false);
  const plan = useOrganizationPlan(device.fleet.organization.id);
  const reason = deactivateUnavailable(device);
  // Deactivating is a paid-plan feature (issue 18; the model rule the server enforces).
  const planProblem = deactivationProblem(plan?.limits ?? null);
  // The fee is one device month at the plan's price (spec 3 §9).
  const fee = plan?.addons[deviceFeature('microservices-v1')];
  return (
    <SettingRow title={t('devices.settings_deactivate')} description={t('devices.settings_deactivate_description')}>
      <PermissionTooltip allowed={canUpdate}>
        <Button variant="outlined" color="warning" disabled={!canUpdate || reason !== undefined || planProblem !== null} onClick={() => setConfirming(true)}>
          {t('devices.settings_deactivate_button')}
        </Button>
      </PermissionTooltip>
      {canUpdate && reason ? <Typography variant="body2" color="text.secondary">{t(`devices.${reason}`)}</Typography> : null}
      {canUpdate && !reason && planProblem ? <Typography variant="body2" color="text.secondary">{t('devices.settings_deactivate_needs_paid_plan')}</Typography> : null}
      {confirming ? (
        <ConfirmDialog
          title={t('devices.settings_deactivate_title', { name: device.device_name })}
          body={plan && fee !== undefined ? t('devices.settings_deactivate_fee_price', { price: formatCents(fee) }) : t('devices.settings_deactivate_fee')}
          confirmLabel={t('devices.settings_deactivate_button')}
          onConfirm={() => change.mutateAsync(() => sdk.models.device.deactivate(device.uuid))}
          success={t('devices.settings_deactivated')}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </SettingRow>
  );
}

function DeleteSetting({ device, canDelete }: { device: DeviceDetails; canDelete: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  return (
    <SettingRow title={t('devices.settings_delete')} description={t('devices.settings_delete_description')}>
      <PermissionTooltip allowed={canDelete}>
        <Button variant="outlined" color="error" disabled={!canDelete} onClick={() => setConfirming(true)}>
          {t('devices.settings_delete_button')}
        </Button>
      </PermissionTooltip>
      {confirming ? (
        <Suspense fallback={null}>
          <TypeToConfirmDialog
            title={t('devices.settings_delete_title', { name: device.device_name })}
            warning={t('devices.settings_delete_warning')}
            expected={device.device_name}
            label={t('devices.settings_delete_label', { name: device.device_name })}
            hint={t('devices.settings_delete_hint')}
            emptyHint={t('devices.confirm_empty')}
            submitLabel={t('devices.settings_delete_button')}
            inputId="device-delete-confirm"
            onConfirm={() => sdk.models.device.remove(device.uuid)}
            success={t('devices.settings_deleted')}
            onSuccess={() =>
              // Spec 2 §2: after deleting a device the user goes to /fleets/{id}; the device's
              // cached query goes too, so its refetch does not redirect to / first.
              void Promise.resolve(navigate(paths.application('fleet', device.fleet.id))).then(() => {
                queryClient.removeQueries({ queryKey: deviceKey(device.uuid) });
                void queryClient.invalidateQueries({ queryKey: fleetDevicesKey(device.fleet.id) });
              })
            }
            onClose={() => setConfirming(false)}
          />
        </Suspense>
      ) : null}
    </SettingRow>
  );
}
