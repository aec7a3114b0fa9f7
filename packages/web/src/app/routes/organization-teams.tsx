import { OrganizationGate } from './organization-gate';
import { OrganizationTeamsPage } from '../../features/teams/pages/organization-teams-page';

/** /orgs/{orgId}/teams (spec 1 §2). */
export function OrganizationTeamsRoute() {
  return (
    <OrganizationGate>
      {({ id, organization, isAdmin }) => <OrganizationTeamsPage id={id} name={organization.name} isAdmin={isAdmin} />}
    </OrganizationGate>
  );
}
