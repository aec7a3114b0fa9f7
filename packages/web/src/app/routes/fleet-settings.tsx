import { useQueryClient } from '@tanstack/react-query';
import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { fleetKey } from '../../features/fleet-access/api/keys';
import { FleetSettingsPage } from '../../features/fleet-settings/components/fleet-settings-page';
import { useFleetRouteContext } from './fleet-context';

/** /{class}s/{id}/settings (spec 2 §2): readers see the settings, controls follow their rights. */
export function FleetSettingsRoute() {
  const { t } = useTranslation();
  const { fleet, access } = useFleetRouteContext();
  const queryClient = useQueryClient();
  if (!access.canRead) return <Typography>{t('fleet.unauthorized')}</Typography>;
  // The shell's header and the application lists show the name, organization and counts.
  const onChanged = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: fleetKey(fleet.id) }),
      queryClient.invalidateQueries({ queryKey: ['fleets'] }),
      queryClient.invalidateQueries({ queryKey: ['applications'] }),
    ]);
  return <FleetSettingsPage fleetId={fleet.id} can={access.can} onChanged={onChanged} />;
}
