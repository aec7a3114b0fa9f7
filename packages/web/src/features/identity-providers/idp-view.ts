import { canAdministerIdentityProvider, IDP_MESSAGES } from '@flotilla/model';

/**
 * What the identity-provider pages decide from what they loaded (pure, tested in
 * idp-view.spec.ts). The rules themselves are the model's (`canAdministerIdentityProvider`);
 * the server enforces them, these pages only mirror them.
 */

interface ProviderRef {
  id: number;
  organizationIds: readonly number[];
}

/**
 * /identity-provider goes to the first provider (oldest) the user administers — every
 * organization it authorizes is one they administer; failing that, the first one they can
 * see (they administer one of its organizations; they see it with its controls disabled).
 * None: the add-identity-provider landing.
 */
export function landingProviderId(providers: readonly ProviderRef[], administeredOrganizationIds: readonly number[]): number | undefined {
  const administered = providers.find((p) => canAdministerIdentityProvider(p.organizationIds, administeredOrganizationIds));
  return (administered ?? providers[0])?.id;
}

/** Why a control of the provider is disabled (its tooltip), or undefined when the user may use it. */
export function providerControlBlock(canAdminister: boolean): string | undefined {
  return canAdminister ? undefined : IDP_MESSAGES.cannot_interact_not_an_admin_of_this_idp;
}

/** Removing a membership: not by a non-administrator, and never the provider's last organization. */
export function membershipRemovalBlock(canAdminister: boolean, membershipCount: number): string | undefined {
  return providerControlBlock(canAdminister) ?? (membershipCount <= 1 ? IDP_MESSAGES.idp_must_have_at_least_one_org : undefined);
}

/** The organizations an administrator may still add: eligible ones the provider does not authorize yet. */
export function addableOrganizations<O extends { id: number }>(eligible: readonly O[], memberOrganizationIds: readonly number[]): O[] {
  const members = new Set(memberOrganizationIds);
  return eligible.filter((o) => !members.has(o.id));
}
