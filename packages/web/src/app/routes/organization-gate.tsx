import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { RedirectWithError } from '../../components/redirect-with-error';
import {
  useMyOrganizationMembership,
  type MyOrganizationMembership,
} from '../../features/organizations/api/get-my-organization-membership';
import { useOrganization, type OrganizationDetails } from '../../features/organizations/api/get-organization';
import { parseRouteId } from '../../lib/route-id';
import { paths } from '../../lib/paths';

// The billing banners (issue 18) load after the page, and not at all with billing off.
const BillingBanners = lazy(async () => ({ default: (await import('../../features/billing-banners')).BillingBanners }));

export interface OrganizationRouteContext {
  id: number;
  organization: OrganizationDetails;
  membership: MyOrganizationMembership | null;
  isAdmin: boolean;
}

/**
 * The rules every /orgs/{orgId}/… page shares (spec 1 §2): a non-numeric id goes up to
 * /orgs with 'invalid id passed in url'; a missing or unreadable organization (both answer
 * {"d":[]}) goes to /orgs; a frozen organization sends those who may access billing (for now
 * its administrators) to its billing page and everybody else to /orgs. The billing page
 * itself does not use this gate.
 */
export function OrganizationGate({ children }: { children: (context: OrganizationRouteContext) => ReactNode }) {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().orgId);
  if (id === undefined) return <RedirectWithError to={paths.organizations()} message={t('invalid_id_passed_in_url')} />;
  return (
    <LoadedOrganization key={id} id={id}>
      {children}
    </LoadedOrganization>
  );
}

function LoadedOrganization({ id, children }: { id: number; children: (context: OrganizationRouteContext) => ReactNode }) {
  const { t } = useTranslation();
  const organization = useOrganization(id);
  const membership = useMyOrganizationMembership(id);

  if (organization.isError || membership.isError) {
    return (
      <FullPageError
        message={t('org_summary.load_failed')}
        onRetry={() => void Promise.all([organization.refetch(), membership.refetch()])}
      />
    );
  }
  if (organization.isPending || membership.isPending) return <FullPageSpinner />;
  if (organization.data === null) return <RedirectWithError to={paths.organizations()} message={t('orgs.not_found')} />;
  const isAdmin = membership.data?.role === 'administrator';
  if (organization.data.is_frozen) {
    return isAdmin ? (
      <RedirectWithError to={paths.organization(id, 'billing')} message={t('update_billing_details')} />
    ) : (
      <RedirectWithError to={paths.organizations()} message={t('reach_administrators')} />
    );
  }
  return (
    <>
      <Suspense fallback={null}>
        <BillingBanners organizationId={id} />
      </Suspense>
      {children({ id, organization: organization.data, membership: membership.data ?? null, isAdmin })}
    </>
  );
}
