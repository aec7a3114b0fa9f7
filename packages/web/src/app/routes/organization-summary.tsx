import { OrganizationGate } from './organization-gate';
import { OrganizationSummaryPage } from '../../features/organizations/pages/organization-summary-page';

/** /orgs/{orgId}: the organization summary (spec 1 §2). */
export function OrganizationSummaryRoute() {
  return (
    <OrganizationGate>
      {({ organization, membership, isAdmin }) => (
        <OrganizationSummaryPage organization={organization} membership={membership} isAdmin={isAdmin} />
      )}
    </OrganizationGate>
  );
}
