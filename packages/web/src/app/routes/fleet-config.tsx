import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ConfigPage } from '../../features/variables/config/components/config-page';
import { useFleetRouteContext } from './fleet-context';

/** /fleets/{id}/config (spec 2 §2): staged edits of the fleet's configuration variables; developers and up change them. */
export function FleetConfigRoute() {
  const { t } = useTranslation();
  const { fleet, access } = useFleetRouteContext();
  if (!access.canRead) return <Typography>{t('fleet.unauthorized')}</Typography>;
  return (
    <ConfigPage
      key={fleet.id}
      level="fleet"
      fleetId={fleet.id}
      deviceType={fleet.deviceType?.slug}
      canEdit={access.can('resin.application_config_variable.all')}
      canDeleteOverrides={access.can('resin.device_config_variable.all')}
    />
  );
}
