import { FREE_PLAN_CODE, type PlanLimits } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { useInstallConfig } from './dashboard-config';
import { pineGet } from './pine';
import { planFeatureMaps, type PlanFeatureRows } from './plan-rows';

/**
 * An organization's plan from the catalogue (issue 18 item 8): what it includes (the model's
 * PlanLimits, for the same limit rules the server enforces) and its per-unit add-on prices by
 * feature slug (seats `member:<role>`, devices `device:<class>`), in cents per month.
 */
export interface OrganizationPlan {
  limits: PlanLimits;
  addons: Readonly<Record<string, number>>;
}

const planQuery = {
  $select: ['billing_code'],
  $expand: {
    plan_feature: { $select: ['quantity'], $expand: { feature: { $select: ['slug'] } } },
    plan_addon: { $select: ['base_price'], $expand: { feature: { $select: ['slug'] } } },
  },
} as const;

type PlanRow = PlanFeatureRows & { billing_code: string };

function toPlan(p: PlanRow): OrganizationPlan {
  const { includes, addons } = planFeatureMaps(p);
  return { limits: { code: p.billing_code, includes }, addons };
}

async function getOrganizationPlan(organizationId: number): Promise<OrganizationPlan> {
  const subs = await pineGet('subscription', {
    $select: ['id'],
    $filter: { is_for__organization: organizationId, is_active: true },
    $expand: { is_for__plan: planQuery },
  });
  const plan = (subs[0] as unknown as { is_for__plan?: PlanRow[] } | undefined)?.is_for__plan?.[0];
  if (plan) return toPlan(plan);
  // An organization that predates billing is on the free plan until the server records it.
  const free = (await pineGet('plan', { ...planQuery, $filter: { billing_code: FREE_PLAN_CODE } })) as unknown as PlanRow[];
  if (!free[0]) throw new Error('The billing catalogue has no free plan');
  return toPlan(free[0]);
}

/**
 * The organization's plan, or `null` while billing is off on this server (nothing is limited
 * and no price is shown) or while it loads.
 */
export function useOrganizationPlan(organizationId: number | undefined): OrganizationPlan | null {
  const { billing } = useInstallConfig();
  const query = useQuery({
    queryKey: ['organization', organizationId, 'plan'],
    queryFn: () => getOrganizationPlan(organizationId!),
    enabled: billing && organizationId !== undefined,
    staleTime: 60_000,
  });
  return billing ? (query.data ?? null) : null;
}
