import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { sdkRows } from '../../../lib/pine';
import { organizationQueryKey } from './get-organization';

export const organizationInvitesQueryKey = (organizationId: number) => [...organizationQueryKey(organizationId), 'invites'] as const;

export interface OrganizationInvite {
  id: number;
  invitee: string;
  role: string | null;
  createdAt: string | null;
  expiry: string | null;
}

/** Pending invites of the organization (administrators only; others get an empty list), newest first. */
export async function getOrganizationInvites(organizationId: number): Promise<OrganizationInvite[]> {
  const invites = await sdkRows(
    'invitee__is_invited_to__organization',
    { $expand: { organization_membership_role: { $select: ['name'] }, invitee: { $select: ['email'] } }, $orderby: { id: 'desc' } },
    (query) => sdk.models.organization.invite.getAllByOrganization(organizationId, query),
  );
  return invites.map((i) => ({
    id: i.id,
    invitee: i.invitee[0]?.email ?? '',
    role: i.organization_membership_role[0]?.name ?? null,
    createdAt: i.created_at,
    expiry: i.expiry,
  }));
}

export const organizationInvitesQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: organizationInvitesQueryKey(organizationId), queryFn: () => getOrganizationInvites(organizationId) });

export function useOrganizationInvites(organizationId: number, enabled = true) {
  return useQuery({ ...organizationInvitesQueryOptions(organizationId), enabled });
}
