import { lazy, Suspense } from 'react';
import { FullPageSpinner } from '../../components/full-page-status';
import { hasBillingAccess } from '../../lib/billing-access';
import { useInstallConfig } from '../../lib/dashboard-config';
import { OrganizationGate } from './organization-gate';

// The page, its strings and the no-access redirect load with their own chunk.
const CreditsPage = lazy(async () => ({ default: (await import('../../features/credits/pages/credits-page')).CreditsPage }));
const CreditsBillingOff = lazy(async () => ({ default: (await import('../../features/credits/pages/credits-page')).CreditsBillingOff }));
const CreditsNoAccess = lazy(async () => ({ default: (await import('../../features/credits/pages/credits-page')).CreditsNoAccess }));

/**
 * /orgs/{orgId}/credits (spec 3 §2, §6): billing access only (others go to /orgs with the
 * reason); with billing off, the page says so.
 */
export function OrganizationCreditsRoute() {
  const { billing } = useInstallConfig();
  return (
    <OrganizationGate>
      {({ id, membership }) => (
        <Suspense fallback={<FullPageSpinner />}>
          {!billing ? (
            <CreditsBillingOff organizationId={id} />
          ) : !hasBillingAccess(membership?.role) ? (
            <CreditsNoAccess />
          ) : (
            <CreditsPage organizationId={id} />
          )}
        </Suspense>
      )}
    </OrganizationGate>
  );
}
