import { useTranslation } from 'react-i18next';
import { SelectSetting } from '../../../components/select-setting';
import type { FleetChange } from '../api/fleet-changes';
import type { FleetSettings } from '../api/get-fleet-settings';
import { useFleetReleases } from '../api/get-fleet-releases';
import { shortCommit } from '../fleet-settings-rules';

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
  const releases = useFleetReleases(fleet.id, SUCCESS);
  const current = fleet.should_track_latest_release || !fleet.targetRelease ? TRACK_LATEST : fleet.targetRelease.commit;
  const valid = releases.data?.filter((r) => !r.is_invalidated || r.commit === current) ?? [];
  const label = (r: { raw_version: string; commit: string }) => t('fleet_summary.release_label', { version: r.raw_version, commit: shortCommit(r.commit) });
  return (
    <SelectSetting
      title={t('fleet_settings.default_release')}
      description={t('fleet_settings.default_release_description')}
      id="fleet-default-release"
      current={current}
      options={[
        { value: TRACK_LATEST, label: t('fleet_settings.track_latest') },
        ...(!releases.data && current !== TRACK_LATEST && fleet.targetRelease ? [{ value: current, label: label(fleet.targetRelease) }] : []),
        ...valid.map((r) => ({ value: r.commit, label: label(r) })),
      ]}
      allowed={canUpdate}
      disabled={!releases.data}
      onSave={(choice) => change(choice === TRACK_LATEST ? { kind: 'track-latest' } : { kind: 'pin', commit: choice })}
      success={(choice) => t(choice === TRACK_LATEST ? 'fleet_settings.track_latest_done' : 'fleet_settings.pinned_done')}
    />
  );
}
