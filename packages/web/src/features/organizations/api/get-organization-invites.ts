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

/** The fields our server returns; the SDK's generated types predate `created_at` and `expiry`. */
interface RawInvite {
  id: number;
  /** Expanded: the invitee row holding the e-mail (balena's model). */
  invitee: Array<{ email: string }> | { __id: number };
  created_at?: string | null;
  expiry?: string | null;
  organization_membership_role: Array<{ name: string }> | { __id: number };
}

/** Pending invites of the organization (administrators only; others get an empty list), newest first. */
export async function getOrganizationInvites(organizationId: number): Promise<OrganizationInvite[]> {
  const invites = (await sdk.models.organization.invite.getAllByOrganization(organizationId, {
    $expand: { organization_membership_role: { $select: ['name'] }, invitee: { $select: ['email'] } },
    $orderby: { id: 'desc' },
  })) as unknown as RawInvite[];
  return invites.map((i) => ({
    id: i.id,
    invitee: Array.isArray(i.invitee) ? (i.invitee[0]?.email ?? '') : '',
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
