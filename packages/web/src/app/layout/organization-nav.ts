import { useQuery } from '@tanstack/react-query';
import { useMatch } from 'react-router';
import { myOrganizationRoleQueryOptions } from '../../lib/billing';
import { hasBillingAccess } from '../../lib/billing-rules';
import { useInstallConfig } from '../../lib/dashboard-config';
import { parseRouteId } from '../../lib/route-id';

/**
 * The organization whose billing entries the sidebar shows (spec 3 §6): on a page of
 * /orgs/{orgId}/…, with billing on and billing access (its administrators). Undefined otherwise.
 */
export function useBillingNavOrganization(): number | undefined {
  const match = useMatch('/orgs/:orgId/*');
  const orgId = parseRouteId(match?.params.orgId);
  const { billing } = useInstallConfig();
  const role = useQuery({ ...myOrganizationRoleQueryOptions(orgId ?? 0), enabled: billing && orgId !== undefined });
  return billing && orgId !== undefined && hasBillingAccess(role.data) ? orgId : undefined;
}
