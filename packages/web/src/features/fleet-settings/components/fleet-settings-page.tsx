import { Paper } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { FullPageError, FullPageSpinner } from '../../../components/full-page-status';
import { useFleetChange } from '../api/fleet-changes';
import { useFleetSettings } from '../api/get-fleet-settings';
import { IdentitySettings } from './identity-settings';
import { OwnershipSettings } from './ownership-settings';
import { ReleaseSettings } from './release-settings';
import { VisibilitySettings } from './visibility-settings';

interface Props {
  fleetId: number;
  can: (permission: string) => boolean;
  /** Refreshes what the shell and the lists show after a change. */
  onChanged: () => Promise<unknown> | void;
}

/** /{class}s/{id}/settings (spec 2 §2 "Fleet pages"; §5; §6 permission names). */
export function FleetSettingsPage({ fleetId, can, onChanged }: Props) {
  const { t } = useTranslation();
  const settings = useFleetSettings(fleetId);
  const mutation = useFleetChange(fleetId, onChanged);
  if (settings.isError) return <FullPageError message={t('fleet.load_failed')} onRetry={() => void settings.refetch()} />;
  if (!settings.data) return <FullPageSpinner />;
  const fleet = settings.data;
  const canUpdate = can('resin.application.update');
  const change = async (c: Parameters<typeof mutation.mutateAsync>[0]) => {
    await mutation.mutateAsync(c);
  };
  return (
    <Paper variant="outlined" component="section" aria-label={t('fleet_settings.title')} sx={{ px: 2 }}>
      <IdentitySettings key={`id-${fleet.app_name}`} fleet={fleet} canUpdate={canUpdate} change={change} />
      <VisibilitySettings
        key={`vis-${fleet.is_stored_at__repository_url ?? ''}-${fleet.deviceType?.id ?? ''}`}
        fleet={fleet}
        canUpdate={canUpdate}
        change={change}
      />
      <ReleaseSettings key={`rel-${fleet.should_track_latest_release}-${fleet.targetRelease?.id ?? ''}`} fleet={fleet} canUpdate={canUpdate} change={change} />
      <OwnershipSettings
        fleet={fleet}
        canTransfer={can('resin.application.transfer')}
        canDelete={can('resin.application.delete')}
        change={change}
        onDeleted={onChanged}
      />
    </Paper>
  );
}
