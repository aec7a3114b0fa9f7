import { lazy, Suspense } from 'react';
import { useInstallConfig } from '../../lib/dashboard-config';

// The banners' queries and UI load only where billing is on, after the page's own chunk.
const BillingBannersPanel = lazy(() => import('./components/billing-banners'));

/**
 * Spec 3 §4/§8 billing banners of one organization, for the pages its users work on
 * (organization pages, fleet and device pages). Nothing when billing is off.
 */
export function BillingBanners({ organizationId }: { organizationId: number }) {
  const { billing } = useInstallConfig();
  if (!billing) return null;
  return (
    <Suspense fallback={null}>
      <BillingBannersPanel organizationId={organizationId} />
    </Suspense>
  );
}

const AllowanceNoticePanel = lazy(() => import('./components/allowance-notice'));

/** Spec 3 §8: the add-device warning once a free organization has reached its free devices. */
export function FreeAllowanceNotice({ organizationId }: { organizationId: number }) {
  const { billing } = useInstallConfig();
  if (!billing) return null;
  return (
    <Suspense fallback={null}>
      <AllowanceNoticePanel organizationId={organizationId} />
    </Suspense>
  );
}
