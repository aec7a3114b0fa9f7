import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import { useRunMutation } from '../../../../lib/notify';
import { sdk } from '../../../../lib/sdk';
import { useDeviceSettingsChange } from '../../api/device-settings';
import type { DeviceDetails } from '../../api/get-device';
import { formatTimestamp } from '../format';
import { SettingRow } from '../../../../components/setting-row';

// The date form loads when it first opens (the first-page budget).
const GrantDialog = lazy(async () => ({ default: (await import('../../../../components/grant-support-dialog')).GrantSupportDialog }));

/** Spec 2 §4, §5: support access on until a future date (default 5 days ahead), or revoked. */
export function DeviceSupportSetting({ device, canUpdate }: { device: DeviceDetails; canUpdate: boolean }) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const change = useDeviceSettingsChange(device.uuid);
  const [granting, setGranting] = useState(false);
  const until = device.is_accessible_by_support_until__date;
  const on = until !== null && Date.parse(until) > Date.now();

  const revoke = () => run(() => change.mutateAsync(() => sdk.models.device.revokeSupportAccess(device.uuid)), { success: t('devices.settings_support_revoked') });

  return (
    <SettingRow
      title={t('devices.support_access')}
      description={on ? t('devices.support_on', { date: formatTimestamp(until) }) : t(until ? 'devices.support_expired' : 'devices.support_off')}
    >
      <Stack direction="row" spacing={1}>
        <PermissionTooltip allowed={canUpdate}>
          <Button variant="outlined" disabled={!canUpdate} onClick={() => setGranting(true)}>
            {on ? t('devices.settings_support_extend') : t('devices.settings_support_grant')}
          </Button>
        </PermissionTooltip>
        {on ? (
          <PermissionTooltip allowed={canUpdate}>
            <Button variant="outlined" color="warning" disabled={!canUpdate} loading={change.isPending} onClick={() => void revoke()}>
              {t('devices.settings_support_revoke')}
            </Button>
          </PermissionTooltip>
        ) : null}
      </Stack>
      {granting ? (
        <Suspense fallback={null}>
          <GrantDialog
            inputId="device-support-until"
            futureText={t('devices.settings_support_date_future')}
            success={t('devices.settings_support_granted')}
            onGrant={(date) => change.mutateAsync(() => sdk.models.device.grantSupportAccess(device.uuid, date.getTime()))}
            onClose={() => setGranting(false)}
          />
        </Suspense>
      ) : null}
    </SettingRow>
  );
}
