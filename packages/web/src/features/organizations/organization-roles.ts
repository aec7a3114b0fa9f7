import { formatCents, seatFeature } from '@flotilla/model';
import type { TFunction } from 'i18next';
import type { OrganizationPlan } from '../../lib/organization-plan';

/** Organization roles offered by the invite and role-change dialogs. */
export const ORGANIZATION_ROLES = ['member', 'administrator'] as const;

/**
 * An organization role's label with its monthly seat price from the organization's plan
 * (`plan_addon` of `member:<role>`, issue 18 item 8); no price while billing is off (plan null).
 */
export function organizationRoleLabel(role: (typeof ORGANIZATION_ROLES)[number], t: TFunction, plan: OrganizationPlan | null): string {
  const price = plan?.addons[seatFeature(role)];
  return price === undefined ? t(`orgs.role_${role}`) : t('members.role_with_price', { role: t(`orgs.role_${role}`), price: `+${formatCents(price)} /mo` });
}
