import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ProvisioningKeysPage } from '../../features/fleet-settings/components/provisioning-keys-page';
import { useFleetRouteContext } from './fleet-context';

/** /fleets/{id}/api-keys (spec 2 §2): needs resin.api_key.read; uses the provisioning key type. */
export function FleetApiKeysRoute() {
  const { t } = useTranslation();
  const { fleet, access } = useFleetRouteContext();
  if (!access.can('resin.api_key.read')) return <Typography>{t('fleet.unauthorized')}</Typography>;
  // Reading keys and managing them take the same right (spec 2 §6: operators add API keys).
  return <ProvisioningKeysPage fleetId={fleet.id} canManage={access.can('resin.api_key.read')} />;
}
