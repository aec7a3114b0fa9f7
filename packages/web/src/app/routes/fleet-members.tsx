import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useFleetRouteContext } from './fleet-context';
import { FleetMembersPage } from '../../features/fleet-access/pages/fleet-members-page';

/**
 * /fleets/{id}/members (spec 2 §2, §6, §7): the fleet's own members and pending invites.
 * Observers and up read it; fleet administrators manage it, others see the controls disabled.
 */
export function FleetMembersRoute() {
  const { t } = useTranslation();
  const { fleet, access } = useFleetRouteContext();
  if (!access.canRead) return <Typography>{t('fleet.unauthorized')}</Typography>;
  return (
    <FleetMembersPage
      fleetId={fleet.id}
      fleetName={fleet.app_name}
      organizationId={fleet.organization.id}
      canManage={access.can('resin.user_application_membership.create')}
    />
  );
}
