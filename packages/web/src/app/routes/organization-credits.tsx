import { useTranslation } from 'react-i18next';
import { RedirectWithError } from '../../components/redirect-with-error';
import { CreditsBillingOff, CreditsPage } from '../../features/credits/pages/credits-page';
import { hasBillingAccess } from '../../lib/billing';
import { useInstallConfig } from '../../lib/dashboard-config';
import { paths } from '../../lib/paths';
import { OrganizationGate } from './organization-gate';

/**
 * /orgs/{orgId}/credits (spec 3 §2, §6): billing access only (others go to /orgs with the
 * reason); with billing off, the page says so.
 */
export function OrganizationCreditsRoute() {
  const { t } = useTranslation();
  const { billing } = useInstallConfig();
  return (
    <OrganizationGate>
      {({ id, membership }) =>
        !billing ? (
          <CreditsBillingOff organizationId={id} />
        ) : !hasBillingAccess(membership?.role) ? (
          <RedirectWithError to={paths.organizations()} message={t('billing_access_required')} />
        ) : (
          <CreditsPage organizationId={id} />
        )
      }
    </OrganizationGate>
  );
}
