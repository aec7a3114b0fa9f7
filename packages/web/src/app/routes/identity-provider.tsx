import { IDP_MESSAGES } from '@flotilla/model';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-status';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useInstallConfigQuery } from '../../lib/dashboard-config';
import { paths } from '../../lib/paths';
import { parseRouteId } from '../../lib/route-id';
import { NotFoundContent } from './not-found';

// The pages and their strings load with their own chunk, once SAML is known to be supported.
const LandingPage = lazy(async () => ({ default: (await import('../../features/identity-providers/pages/identity-provider-pages')).IdentityProviderLandingPage }));
const DetailsPage = lazy(async () => ({ default: (await import('../../features/identity-providers/pages/identity-provider-pages')).IdentityProviderDetailsPage }));

/**
 * /identity-provider[/{id}] (spec 1 §2, issue 20). Without SAML support (`/config/dashboard`
 * `saml: false`) the pages do not exist; a non-numeric id goes back to the landing.
 */
export function IdentityProviderRoute() {
  const params = useParams();
  const config = useInstallConfigQuery();
  if (config.isPending) return <FullPageSpinner />;
  if (config.data?.saml !== true) return <NotFoundContent />;
  if (params.identityProviderId !== undefined) {
    const id = parseRouteId(params.identityProviderId);
    if (id === undefined) return <RedirectWithError to={paths.identityProvider()} message={IDP_MESSAGES.invalid_id_passed_in_url} />;
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <DetailsPage key={id} identityProviderId={id} />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <LandingPage />
    </Suspense>
  );
}
