import { COUNTED_CREDIT_STATUSES } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { myOrganizationRoleQueryOptions, organizationDeviceCountQueryOptions, organizationPlanQueryOptions } from '../../../lib/billing';
import { hasBillingAccess } from '../../../lib/billing-access';
import { countedCreditBalance, isFreePlan } from '../../../lib/billing-rules';
import { pineGetOne } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import type { BillingFacts } from '../banner-rules';

/** Balance and threshold, for users with billing access (the only ones who may read them). */
async function getCreditStanding(organizationId: number): Promise<{ balance: number; threshold: number } | null> {
  const [notification] = await sdk.pine.get({
    resource: 'organization_credit_notification',
    options: { $select: ['is_sent_when_below__threshold'], $filter: { organization: organizationId }, $top: 1 },
  });
  if (!notification) return null;
  const bundles = await sdk.models.creditBundle.getAllByOrg(organizationId, {
    $select: ['payment_status', 'available_balance', 'expires_on__date'],
    $filter: { payment_status: { $in: [...COUNTED_CREDIT_STATUSES] } },
  });
  return { balance: countedCreditBalance(bundles, new Date()), threshold: notification.is_sent_when_below__threshold };
}

export interface BillingStatus {
  facts: BillingFacts;
  canAccessBilling: boolean;
}

export function useBillingStatus(organizationId: number) {
  const role = useQuery(myOrganizationRoleQueryOptions(organizationId));
  const organization = useQuery({
    queryKey: ['organization', organizationId, 'billing', 'standing'],
    queryFn: () => pineGetOne('organization', organizationId, { $select: ['has_past_due_invoice_since__date', 'is_frozen'] }),
  });
  const plan = useQuery(organizationPlanQueryOptions(organizationId));
  const devices = useQuery(organizationDeviceCountQueryOptions(organizationId));
  const canAccessBilling = hasBillingAccess(role.data);
  const credits = useQuery({
    queryKey: ['organization', organizationId, 'billing', 'credits', 'standing'],
    queryFn: () => getCreditStanding(organizationId),
    enabled: canAccessBilling,
    // The credits resources may be missing or refused: then there is simply no threshold banner.
    retry: false,
  });
  if (!organization.data || !plan.data || devices.data === undefined || role.isPending) return undefined;
  const status: BillingStatus = {
    canAccessBilling,
    facts: {
      pastDueSince: organization.data.has_past_due_invoice_since__date ?? null,
      isFrozen: organization.data.is_frozen,
      isFreePlan: isFreePlan(plan.data.code),
      includedDevices: plan.data.includedDevices,
      deviceCount: devices.data,
      balance: credits.data?.balance ?? null,
      threshold: credits.data?.threshold ?? null,
    },
  };
  return status;
}
