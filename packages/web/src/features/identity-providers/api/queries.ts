import { queryOptions, useQuery } from '@tanstack/react-query';
import { pineCount, pineGet, pineGetOne } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import { identityProvidersListKey, identityProvidersRootKey } from './keys';

export interface OrganizationRef {
  id: number;
  name: string;
  handle: string;
}

/**
 * GET /identity-provider/v1/eligible-organizations: the organizations where the user is an
 * administrator and whose plan includes SAML (every one when billing is off). None: the user
 * has no SAML access (spec 1 §6).
 */
export async function getEligibleOrganizations(): Promise<OrganizationRef[]> {
  const { body } = await sdk.request.send<{ organizations: OrganizationRef[] }>({
    method: 'GET',
    url: '/identity-provider/v1/eligible-organizations',
    baseUrl: window.location.origin,
  });
  return [...body.organizations].sort((a, b) => a.name.localeCompare(b.name));
}

export function useEligibleOrganizations() {
  return useQuery({ queryKey: [...identityProvidersRootKey, 'eligible-organizations'], queryFn: getEligibleOrganizations });
}

/** The ids of the organizations where the user is an administrator (who may change a provider). */
export async function getAdministeredOrganizationIds(): Promise<number[]> {
  const { id: userId } = await sdk.auth.getUserInfo();
  const memberships = await pineGet('organization_membership', {
    $select: ['is_member_of__organization'],
    $filter: { user: userId, organization_membership_role: { $any: { $alias: 'omr', $expr: { omr: { name: 'administrator' } } } } },
  });
  return memberships.map((m) => m.is_member_of__organization.__id);
}

export function useAdministeredOrganizationIds() {
  return useQuery({ queryKey: [...identityProvidersRootKey, 'administered-organizations'], queryFn: getAdministeredOrganizationIds });
}

/** The providers the user can see (the server shows those of organizations they administer), oldest first. */
export async function getIdentityProviders() {
  const rows = await pineGet('identity_provider', {
    $select: ['id', 'sso_identifier'],
    $expand: { identity_provider_membership: { $select: ['organization'] } },
    $orderby: { id: 'asc' },
  });
  return rows.map((r) => ({ id: r.id, ssoIdentifier: r.sso_identifier, organizationIds: r.identity_provider_membership.map((m) => m.organization.__id) }));
}

export type IdentityProviderSummary = Awaited<ReturnType<typeof getIdentityProviders>>[number];

export function useIdentityProviders() {
  return useQuery({ queryKey: identityProvidersListKey, queryFn: getIdentityProviders });
}

export interface IdentityProviderMembershipRow {
  id: number;
  /** Name and handle are null for an organization the user is not a member of (they cannot read it). */
  organization: { id: number; name: string | null; handle: string | null };
  /** The team single-sign-on users join; null: none. */
  team: { id: number; name: string } | null;
}

export interface IdentityProviderDetails {
  id: number;
  ssoIdentifier: string;
  entryPoint: string;
  issuer: string;
  certificate: string;
  createdAt: string;
  memberships: IdentityProviderMembershipRow[];
}

export const identityProviderQueryKey = (id: number) => [...identityProvidersRootKey, 'detail', id] as const;

/** One provider with its memberships (organization, default team), or null when it does not exist (or is not visible). */
export async function getIdentityProvider(id: number): Promise<IdentityProviderDetails | null> {
  const row = await pineGetOne('identity_provider', id, {
    $select: ['id', 'sso_identifier', 'entry_point', 'issuer', 'certificate', 'created_at'],
    $expand: {
      identity_provider_membership: {
        // The organization's id from `authorizes__organization` (the same link): the expanded
        // organization is empty when the user cannot read it, and it still counts as one of
        // the provider's organizations (who administers the provider).
        $select: ['id', 'authorizes__organization', 'grants_access_to__team'],
        $expand: { organization: { $select: ['id', 'name', 'handle'] }, grants_access_to__team: { $select: ['id', 'name'] } },
      },
    },
  });
  if (!row) return null;
  return {
    id: row.id,
    ssoIdentifier: row.sso_identifier,
    entryPoint: row.entry_point,
    issuer: row.issuer,
    certificate: row.certificate,
    createdAt: row.created_at,
    memberships: row.identity_provider_membership
      .flatMap((m) => {
        const organization = m.organization[0];
        const organizationId = m.authorizes__organization?.__id ?? organization?.id;
        if (organizationId === undefined) return [];
        const team = m.grants_access_to__team[0];
        return [
          {
            id: m.id,
            organization: { id: organizationId, name: organization?.name ?? null, handle: organization?.handle ?? null },
            team: team ? { id: team.id, name: team.name } : null,
          },
        ];
      })
      // By name; organizations the user cannot read last.
      .sort((a, b) => (a.organization.name ?? '\uffff').localeCompare(b.organization.name ?? '\uffff')),
  };
}

export const identityProviderQueryOptions = (id: number) =>
  queryOptions({ queryKey: identityProviderQueryKey(id), queryFn: () => getIdentityProvider(id) });

export function useIdentityProvider(id: number) {
  return useQuery(identityProviderQueryOptions(id));
}

/** How many SAML accounts the provider created: its removal is blocked while there are any. */
export async function countSamlAccounts(identityProviderId: number): Promise<number> {
  return pineCount('saml_account', { $filter: { was_generated_by__identity_provider: identityProviderId } });
}

export function useSamlAccountCount(identityProviderId: number) {
  return useQuery({
    queryKey: [...identityProviderQueryKey(identityProviderId), 'saml-accounts'],
    queryFn: () => countSamlAccounts(identityProviderId),
    // Asked afresh each time the removal dialog opens.
    staleTime: 0,
    gcTime: 0,
  });
}

/** An organization's teams by name, for the default-team select. */
export async function getOrganizationTeams(organizationId: number) {
  return pineGet('team', { $select: ['id', 'name'], $filter: { belongs_to__organization: organizationId }, $orderby: { name: 'asc' } });
}

export function useOrganizationTeams(organizationId: number) {
  return useQuery({ queryKey: [...identityProvidersRootKey, 'teams', organizationId], queryFn: () => getOrganizationTeams(organizationId) });
}
