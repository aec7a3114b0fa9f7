import { Paper, Typography, Button } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { FullPageError, FullPageSpinner } from '../../components/full-page-status';
import { PageHeader } from '../../components/page-header';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useMyOrganizationMembership } from '../../features/organizations/api/get-my-organization-membership';
import { useOrganization } from '../../features/organizations/api/get-organization';
import { useInstallConfigQuery } from '../../lib/dashboard-config';
import { useSession } from '../../lib/get-session';
import { sessionClaimsQueryOptions } from '../../lib/get-session-claims';
import { useQuery } from '@tanstack/react-query';
import { parseRouteId } from '../../lib/route-id';
import { paths } from '../../lib/paths';
import { isPlatformAdministrator } from '../../lib/session-claims';

const BillingPage = lazy(async () => ({ default: (await import('../../features/billing/pages/billing-page')).BillingPage }));
const BillingBanners = lazy(async () => ({ default: (await import('../../features/billing-banners')).BillingBanners }));

/**
 * /orgs/{orgId}/billing (spec 3 §2): with billing off on this server, says so and nothing
 * else; with it on, only for those with billing access (the organization's administrators and
 * platform administrators; others go to /orgs with an error). Exempt from the frozen redirect
 * (frozen organizations send their administrators here).
 */
export function OrganizationBillingRoute() {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().orgId);
  const config = useInstallConfigQuery();
  if (id === undefined) return <RedirectWithError to={paths.organizations()} message={t('invalid_id_passed_in_url')} />;
  if (config.isPending) return <FullPageSpinner />;
  if (!config.data?.billing) {
    return (
      <>
        <PageHeader title={t('org_summary.billing_title')} />
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography gutterBottom role="status">
            {t('org_summary.billing_off')}
          </Typography>
          <Button component={RouterLink} to={paths.organizations()} variant="outlined">
            {t('org_summary.back_to_orgs')}
          </Button>
        </Paper>
      </>
    );
  }
  return <BillingAccess key={id} id={id} config={config.data} />;
}

function BillingAccess({ id, config }: { id: number; config: NonNullable<ReturnType<typeof useInstallConfigQuery>['data']> }) {
  const { t } = useTranslation();
  const organization = useOrganization(id);
  const membership = useMyOrganizationMembership(id);
  const { data: session } = useSession();
  const claims = useQuery(sessionClaimsQueryOptions(session?.id));
  if (organization.isError || membership.isError) {
    return <FullPageError message={t('org_summary.load_failed')} onRetry={() => void Promise.all([organization.refetch(), membership.refetch()])} />;
  }
  if (organization.isPending || membership.isPending || claims.isPending) return <FullPageSpinner />;
  if (organization.data === null) return <RedirectWithError to={paths.organizations()} message={t('orgs.not_found')} />;
  // Spec 3 §6 resin.organization.access_billing: the organization's administrators (the server decides too).
  const canAccess = membership.data?.role === 'administrator' || isPlatformAdministrator(claims.data ?? null);
  if (!canAccess) return <RedirectWithError to={paths.organizations()} message={t('org_summary.billing_no_access')} />;
  // The past-due and frozen banners: a frozen organization's administrators land here.
  return (
    <>
      <Suspense fallback={null}>
        <BillingBanners organizationId={id} />
      </Suspense>
      <Suspense fallback={<FullPageSpinner />}>
        <BillingPage orgId={id} companyName={organization.data.company_name ?? null} config={config} />
      </Suspense>
    </>
  );
}
