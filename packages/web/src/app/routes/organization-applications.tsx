import type { ApplicationClass } from '@flotilla/model';
import { Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApplicationList } from '../../features/fleets/components/application-list';
import { useAppsEnabled } from '../../features/preferences/api/get-apps-enabled';
import { AppsFlagGate } from './applications';
import { OrganizationGate } from './organization-gate';
import { paths } from '../../lib/paths';

/** /orgs/{orgId}/fleets|apps|blocks (spec 1 §2): what the organization owns, inside the organization rules. */
function OrganizationApplications({ appClass }: { appClass: ApplicationClass }) {
  const { t } = useTranslation();
  const appsEnabled = useAppsEnabled() === true;
  return (
    <OrganizationGate>
      {({ id, organization, isAdmin }) => (
        <ApplicationList
          key={id}
          appClass={appClass}
          title={t(`fleets.org_title_${appClass}`, { name: organization.name })}
          organizationId={id}
          canCreate={isAdmin}
          appsEnabled={appsEnabled}
        >
          <Link component={RouterLink} to={paths.organization(id)} sx={{ display: 'inline-block', mb: 2 }}>
            {t('fleets.back_to_organization')}
          </Link>
        </ApplicationList>
      )}
    </OrganizationGate>
  );
}

export function OrganizationFleetsRoute() {
  return <OrganizationApplications appClass="fleet" />;
}

export function OrganizationBlocksRoute() {
  return <OrganizationApplications appClass="block" />;
}

export function OrganizationAppsRoute() {
  return (
    <AppsFlagGate>
      <OrganizationApplications appClass="app" />
    </AppsFlagGate>
  );
}
