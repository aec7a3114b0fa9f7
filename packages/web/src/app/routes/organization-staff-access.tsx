import { lazy, Suspense } from 'react';
import { FullPageSpinner } from '../../components/full-page-status';
import { OrganizationGate } from './organization-gate';

// The page and its strings load with their own chunk.
const StaffAccessPage = lazy(async () => ({ default: (await import('../../features/staff-access/pages/staff-access-page')).StaffAccessPage }));
const StaffAccessNoAccess = lazy(async () => ({ default: (await import('../../features/staff-access/pages/staff-access-page')).StaffAccessNoAccess }));

/** /orgs/{orgId}/staff-access (issue 19 item 2): the organization's administrators only. */
export function OrganizationStaffAccessRoute() {
  return (
    <OrganizationGate>
      {({ id, isAdmin }) => (
        <Suspense fallback={<FullPageSpinner />}>{isAdmin ? <StaffAccessPage organizationId={id} /> : <StaffAccessNoAccess organizationId={id} />}</Suspense>
      )}
    </OrganizationGate>
  );
}
