import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SelectSetting } from '../../../../components/select-setting';
import { sdk } from '../../../../lib/sdk';
import { usePinnableReleases, useDeviceSettingsChange } from '../../api/device-settings';
import type { DeviceDetails } from '../../api/get-device';

const TRACK_FLEET = 'track-fleet';

/**
 * Spec 2 §4 release policy for one device: pin to a successful release of its fleet, or track
 * the fleet's. A device in local mode ignores its target release: 'not available in local mode'.
 */
export function DeviceReleaseSetting({ device, canUpdate, localMode }: { device: DeviceDetails; canUpdate: boolean; localMode: boolean }) {
  const { t } = useTranslation();
  const releases = usePinnableReleases(device.fleet.id);
  const change = useDeviceSettingsChange(device.uuid);
  const label = (r: { raw_version: string; commit: string }) => `${r.raw_version} (${r.commit.slice(0, 7)})`;
  return (
    <SelectSetting
      title={t('devices.settings_release')}
      description={t('devices.settings_release_description')}
      id="device-target-release"
      current={device.pinned?.commit ?? TRACK_FLEET}
      options={[
        { value: TRACK_FLEET, label: t('devices.settings_track_fleet') },
        ...(!releases.data && device.pinned ? [{ value: device.pinned.commit, label: label(device.pinned) }] : []),
        ...(releases.data ?? []).map((r) => ({ value: r.commit, label: label(r) })),
      ]}
      allowed={canUpdate}
      disabled={localMode || !releases.data}
      onSave={(choice) =>
        change.mutateAsync(() => (choice === TRACK_FLEET ? sdk.models.device.trackApplicationRelease(device.uuid) : sdk.models.device.pinToRelease(device.uuid, choice)))
      }
      success={(choice) => t(choice === TRACK_FLEET ? 'devices.settings_track_done' : 'devices.settings_pin_done')}
    >
      {localMode ? (
        <Typography variant="body2" color="text.secondary">
          {t('devices.not_available_in_local_mode')}
        </Typography>
      ) : null}
    </SelectSetting>
  );
}
