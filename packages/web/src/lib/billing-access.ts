import { queryOptions } from '@tanstack/react-query';
import { pineGet } from './pine';
import { sdk } from './sdk';

/**
 * Who may see billing (spec 3 §6 resin.organization.access_billing): the organization's
 * administrators (docs/billing.md; the server decides, this only picks what to show). Kept apart
 * from the other billing helpers: the sidebar, on every first page, needs only this.
 */
export const hasBillingAccess = (membershipRole: string | null | undefined) => membershipRole === 'administrator';

/** The signed-in user's role in the organization (null: not a member). */
export async function getMyOrganizationRole(organizationId: number): Promise<string | null> {
  const { id: userId } = await sdk.auth.getUserInfo();
  const [membership] = await pineGet('organization_membership', {
    $select: ['id'],
    $filter: { user: userId, is_member_of__organization: organizationId },
    $expand: { organization_membership_role: { $select: ['name'] } },
  });
  return membership?.organization_membership_role[0]?.name ?? null;
}

export const myOrganizationRoleQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: ['organization', organizationId, 'billing', 'my-role'], queryFn: () => getMyOrganizationRole(organizationId) });
