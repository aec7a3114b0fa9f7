import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationQueryKey } from './get-organization';

export const organizationInvitesQueryKey = (organizationId: number) => [...organizationQueryKey(organizationId), 'invites'] as const;

export interface OrganizationInvite {
  id: number;
  invitee: string;
  role: string | null;
  createdAt: string | null;
  expiry: string | null;
}

/** The fields our server returns; the SDK's generated types predate `invitee` as text, `created_at` and `expiry`. */
interface RawInvite {
  id: number;
  invitee: string | { __id: number } | null;
  created_at?: string | null;
  expiry?: string | null;
  organization_membership_role: Array<{ name: string }> | { __id: number };
}

/** Pending invites of the organization (administrators only; others get an empty list), newest first. */
export async function getOrganizationInvites(organizationId: number): Promise<OrganizationInvite[]> {
  const invites = (await sdk.models.organization.invite.getAllByOrganization(organizationId, {
    $expand: { organization_membership_role: { $select: ['name'] } },
    $orderby: { id: 'desc' },
  })) as unknown as RawInvite[];
  return invites.map((i) => ({
    id: i.id,
    invitee: typeof i.invitee === 'string' ? i.invitee : '',
    role: Array.isArray(i.organization_membership_role) ? (i.organization_membership_role[0]?.name ?? null) : null,
    createdAt: i.created_at ?? null,
    expiry: i.expiry ?? null,
  }));
}

export const organizationInvitesQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: organizationInvitesQueryKey(organizationId), queryFn: () => getOrganizationInvites(organizationId) });

export function useOrganizationInvites(organizationId: number, enabled = true) {
  return useQuery({ ...organizationInvitesQueryOptions(organizationId), enabled });
}
