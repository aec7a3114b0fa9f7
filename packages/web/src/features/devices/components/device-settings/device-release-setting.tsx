import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectInput } from '../../../../components/form-fields';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import { useNotify } from '../../../../lib/notify';
import { sdk } from '../../../../lib/sdk';
import { usePinnableReleases, useDeviceSettingsChange } from '../../api/device-settings';
import type { DeviceDetails } from '../../api/get-device';
import { SettingRow } from '../../../../components/setting-row';

const TRACK_FLEET = 'track-fleet';

/**
 * Spec 2 §4 release policy for one device: pin to a successful release of its fleet, or track
 * the fleet's. A device in local mode ignores its target release: 'not available in local mode'.
 */
export function DeviceReleaseSetting({ device, canUpdate, localMode }: { device: DeviceDetails; canUpdate: boolean; localMode: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const releases = usePinnableReleases(device.fleet.id);
  const change = useDeviceSettingsChange(device.uuid);
  const current = device.pinned?.commit ?? TRACK_FLEET;
  const [choice, setChoice] = useState(current);
  const label = (r: { raw_version: string; commit: string }) => `${r.raw_version} (${r.commit.slice(0, 7)})`;

  const apply = async () => {
    try {
      if (choice === TRACK_FLEET) {
        await change.mutateAsync(() => sdk.models.device.trackApplicationRelease(device.uuid));
        notify.success(t('devices.settings_track_done'));
      } else {
        await change.mutateAsync(() => sdk.models.device.pinToRelease(device.uuid, choice));
        notify.success(t('devices.settings_pin_done'));
      }
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <SettingRow title={t('devices.settings_release')} description={t('devices.settings_release_description')}>
      <Stack direction="row" spacing={1} sx={{ width: '100%' }}>
        <SelectInput
          id="device-target-release"
          label={t('devices.settings_release')}
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          disabled={!canUpdate || localMode || !releases.data}
        >
          <option value={TRACK_FLEET}>{t('devices.settings_track_fleet')}</option>
          {!releases.data && device.pinned ? <option value={device.pinned.commit}>{label(device.pinned)}</option> : null}
          {releases.data?.map((r) => (
            <option key={r.id} value={r.commit}>
              {label(r)}
            </option>
          ))}
        </SelectInput>
        <PermissionTooltip allowed={canUpdate}>
          <Button variant="outlined" disabled={!canUpdate || localMode || choice === current} loading={change.isPending} onClick={() => void apply()}>
            {t('common.save')}
          </Button>
        </PermissionTooltip>
      </Stack>
      {localMode ? (
        <Typography variant="body2" color="text.secondary">
          {t('devices.not_available_in_local_mode')}
        </Typography>
      ) : null}
    </SettingRow>
  );
}
