import { OrganizationsPage } from '../../features/organizations/pages/organizations-page';

/** /orgs (spec 1 §2). */
export function OrganizationsRoute() {
  return <OrganizationsPage />;
}
