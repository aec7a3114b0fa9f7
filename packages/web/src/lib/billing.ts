import { CAPABILITIES, DEVICE_CLASSES, FREE_DEVICE_ALLOWANCE, FREE_PLAN_CODE, deviceFeature } from '@flotilla/model';
import { queryOptions } from '@tanstack/react-query';
import { pineCount, pineGet } from './pine';

/**
 * What the credits page and the billing banners both read about one organization's plan
 * (spec 3 §4, §9), from the v7 `subscription` / `plan` / `plan_feature` / `plan_addon` rows.
 * Both features use it, so it lives here (features do not import each other).
 */
export interface OrganizationPlan {
  code: string;
  title: string;
  /** Devices the plan includes (every device class's `device:<class>` plan_feature). */
  includedDevices: number;
  /** Cents per credit: the plan's `credits:device` add-on price (null: it sells none). */
  creditUnitCents: number | null;
}

/** An organization without an active subscription is on the free plan (spec 3 §9). */
export const FREE_PLAN: OrganizationPlan = { code: FREE_PLAN_CODE, title: 'Free', includedDevices: FREE_DEVICE_ALLOWANCE, creditUnitCents: null };

const DEVICE_SLUGS: readonly string[] = DEVICE_CLASSES.map(deviceFeature);

export async function getOrganizationPlan(organizationId: number): Promise<OrganizationPlan> {
  const [subscription] = await pineGet('subscription', {
    $select: ['id'],
    $filter: { is_for__organization: organizationId, is_active: true },
    $expand: {
      is_for__plan: {
        $select: ['billing_code', 'title'],
        $expand: {
          plan_feature: { $select: ['quantity'], $expand: { feature: { $select: ['slug'] } } },
          plan_addon: { $select: ['base_price'], $expand: { feature: { $select: ['slug'] } } },
        },
      },
    },
    $top: 1,
  });
  const plan = subscription?.is_for__plan[0];
  if (!plan) return FREE_PLAN;
  const includedDevices = plan.plan_feature
    .filter((f) => DEVICE_SLUGS.includes(f.feature[0]?.slug ?? ''))
    .reduce((sum, f) => sum + f.quantity, 0);
  const creditAddon = plan.plan_addon.find((a) => a.feature[0]?.slug === CAPABILITIES.credits);
  return { code: plan.billing_code, title: plan.title, includedDevices, creditUnitCents: creditAddon ? creditAddon.base_price : null };
}

export const organizationPlanQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: ['organization', organizationId, 'billing', 'plan'], queryFn: () => getOrganizationPlan(organizationId) });

/** Every device of the organization's fleets (what the allowance and the runway count). */
export function getOrganizationDeviceCount(organizationId: number): Promise<number> {
  return pineCount('device', { $filter: { belongs_to__application: { $any: { $alias: 'a', $expr: { a: { organization: organizationId } } } } } });
}

export const organizationDeviceCountQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: ['organization', organizationId, 'billing', 'device-count'], queryFn: () => getOrganizationDeviceCount(organizationId) });

export { countedCreditBalance, isFreePlan, planSupportsCredits } from './billing-rules';
export { hasBillingAccess, myOrganizationRoleQueryOptions } from './billing-access';
