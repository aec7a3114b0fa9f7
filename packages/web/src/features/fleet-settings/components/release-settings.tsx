import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectInput } from '../../../components/form-fields';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useNotify } from '../../../lib/notify';
import type { FleetChange } from '../api/fleet-changes';
import type { FleetSettings } from '../api/get-fleet-settings';
import { useFleetReleases } from '../api/get-fleet-releases';
import { shortCommit } from '../fleet-settings-rules';
import { SettingRow } from '../../../components/setting-row';

const TRACK_LATEST = 'track-latest';
const SUCCESS = ['success'] as const;

interface Props {
  fleet: FleetSettings;
  canUpdate: boolean;
  change: (c: FleetChange) => Promise<void>;
}

/** Spec 2 §4 release policy: pin the fleet to a successful release, or track the latest. */
export function ReleaseSettings({ fleet, canUpdate, change }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const releases = useFleetReleases(fleet.id, SUCCESS);
  const current = fleet.should_track_latest_release || !fleet.targetRelease ? TRACK_LATEST : fleet.targetRelease.commit;
  const [choice, setChoice] = useState(current);
  const [busy, setBusy] = useState(false);
  const valid = releases.data?.filter((r) => !r.is_invalidated || r.commit === current) ?? [];

  const apply = async () => {
    setBusy(true);
    try {
      if (choice === TRACK_LATEST) {
        await change({ kind: 'track-latest' });
        notify.success(t('fleet_settings.track_latest_done'));
      } else {
        await change({ kind: 'pin', commit: choice });
        notify.success(t('fleet_settings.pinned_done'));
      }
    } catch (err) {
      notify.error(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingRow title={t('fleet_settings.default_release')} description={t('fleet_settings.default_release_description')}>
      <Stack direction="row" spacing={1} sx={{ width: '100%' }}>
        <SelectInput
          id="fleet-default-release"
          label={t('fleet_settings.default_release')}
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          disabled={!canUpdate || !releases.data}
        >
          <option value={TRACK_LATEST}>{t('fleet_settings.track_latest')}</option>
          {!releases.data && current !== TRACK_LATEST && fleet.targetRelease && (
            <option value={current}>{t('fleet_summary.release_label', { version: fleet.targetRelease.raw_version, commit: shortCommit(current) })}</option>
          )}
          {valid.map((r) => (
            <option key={r.id} value={r.commit}>
              {t('fleet_summary.release_label', { version: r.raw_version, commit: shortCommit(r.commit) })}
            </option>
          ))}
        </SelectInput>
        <PermissionTooltip allowed={canUpdate}>
          <Button variant="outlined" disabled={!canUpdate || choice === current} loading={busy} onClick={() => void apply()}>
            {t('common.save')}
          </Button>
        </PermissionTooltip>
      </Stack>
    </SettingRow>
  );
}
