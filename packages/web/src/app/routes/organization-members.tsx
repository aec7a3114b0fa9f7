import { OrganizationGate } from './organization-gate';
import { OrganizationMembersPage } from '../../features/organizations/pages/organization-members-page';

/** /orgs/{orgId}/members (spec 1 §2). */
export function OrganizationMembersRoute() {
  return (
    <OrganizationGate>
      {({ organization, membership, isAdmin }) => (
        <OrganizationMembersPage organization={organization} myMembershipId={membership?.id} isAdmin={isAdmin} />
      )}
    </OrganizationGate>
  );
}
