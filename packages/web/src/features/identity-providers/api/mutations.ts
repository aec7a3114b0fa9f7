import type { PineBody } from '../../../lib/pine';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pinePatch, pinePost } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import { identityProvidersListKey, identityProvidersRootKey } from './keys';
import type { IdentityProviderSummary } from './queries';

export interface IdentityProviderFields {
  sso_identifier: string;
  entry_point: string;
  issuer: string;
  certificate: string;
}

export interface CreatedIdentityProvider {
  id: number;
  /** Why adding one of the other organizations failed (the provider exists, with those added before). */
  membershipError?: unknown;
}

/**
 * Spec 1 §4 "add": POST identity_provider with the first organization (`organization_id`),
 * then a membership for each other organization, in order.
 */
export async function createIdentityProvider({
  fields,
  organizationIds,
}: {
  fields: IdentityProviderFields;
  organizationIds: readonly number[];
}): Promise<CreatedIdentityProvider> {
  const [first, ...others] = organizationIds;
  if (first === undefined) throw new Error('An identity provider needs an organization');
  // `organization_id` is the server's create extension (dialect: identity provider POST).
  const body: IdentityProviderFields & { organization_id: number } = { ...fields, organization_id: first };
  const { id } = await pinePost('identity_provider', body as PineBody<'identity_provider'>);
  try {
    for (const organization of others) await pinePost('identity_provider_membership', { organization, is_authorized_by__identity_provider: id });
  } catch (membershipError) {
    return { id, membershipError };
  }
  return { id };
}

export async function updateIdentityProvider({ id, fields }: { id: number; fields: IdentityProviderFields }) {
  await pinePatch('identity_provider', { id }, fields);
}

export async function deleteIdentityProvider(id: number) {
  await sdk.pine.delete({ resource: 'identity_provider', id });
}

export async function addIdentityProviderMembership({ identityProviderId, organizationId }: { identityProviderId: number; organizationId: number }) {
  await pinePost('identity_provider_membership', { organization: organizationId, is_authorized_by__identity_provider: identityProviderId });
}

/** PATCH {grants_access_to__team}; null: new users join no team. */
export async function setMembershipTeam({ membershipId, teamId }: { membershipId: number; teamId: number | null }) {
  await pinePatch('identity_provider_membership', { id: membershipId }, { grants_access_to__team: teamId });
}

export async function removeIdentityProviderMembership(membershipId: number) {
  await sdk.pine.delete({ resource: 'identity_provider_membership', id: membershipId });
}

/** A mutation of this feature; every query of the feature is fetched again after it. */
function useIdpMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: identityProvidersRootKey }) });
}

export const useCreateIdentityProvider = () => useIdpMutation(createIdentityProvider);
export const useUpdateIdentityProvider = () => useIdpMutation(updateIdentityProvider);
export const useAddIdentityProviderMembership = () => useIdpMutation(addIdentityProviderMembership);
export const useSetMembershipTeam = () => useIdpMutation(setMembershipTeam);
export const useRemoveIdentityProviderMembership = () => useIdpMutation(removeIdentityProviderMembership);

/**
 * Removal: the provider leaves the cached list at once (the landing, opened next, must not
 * send the user back to it while the list is fetched again), and every query but the removed
 * provider's own is fetched again; that one is left alone, so its page leaves for the landing
 * without first reading the provider as missing (`no_idp_found`).
 */
export function useDeleteIdentityProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteIdentityProvider,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<IdentityProviderSummary[]>(identityProvidersListKey, (list) => list?.filter((p) => p.id !== id));
      return queryClient.invalidateQueries({
        queryKey: identityProvidersRootKey,
        predicate: (query) => !(query.queryKey[1] === 'detail' && query.queryKey[2] === id),
      });
    },
  });
}
