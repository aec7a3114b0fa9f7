import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useFleetRouteContext } from './fleet-context';
import { FleetTeamsPage } from '../../features/fleet-access/pages/fleet-teams-page';

/**
 * /fleets/{id}/teams (spec 2 §2, §6): teams with access to the fleet. Team application
 * access is read by fleet developers and up and managed by administrators; below developer
 * the page says 'unauthorized to view or edit' (the server refuses those reads too).
 */
export function FleetTeamsRoute() {
  const { t } = useTranslation();
  const { fleet, access } = useFleetRouteContext();
  if (!access.atLeast('developer')) return <Typography>{t('fleet.unauthorized')}</Typography>;
  return (
    <FleetTeamsPage
      fleetId={fleet.id}
      fleetName={fleet.app_name}
      organizationId={fleet.organization.id}
      canManage={access.canManageTeamAccess}
    />
  );
}
