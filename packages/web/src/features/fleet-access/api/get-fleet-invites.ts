import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { sdkRows } from '../../../lib/pine';
import { fleetKey } from './keys';

export interface FleetInvite {
  id: number;
  invitee: string;
  role: string | null;
  createdAt: string | null;
}

export const fleetInvitesQueryKey = (fleetId: number) => [...fleetKey(fleetId), 'invites'] as const;

/** Pending invites of the fleet (fleet administrators only; others get an empty list), newest first. */
export async function getFleetInvites(fleetId: number): Promise<FleetInvite[]> {
  const invites = await sdkRows(
    'invitee__is_invited_to__application',
    { $expand: { application_membership_role: { $select: ['name'] }, invitee: { $select: ['email'] } }, $orderby: { id: 'desc' } },
    (query) => sdk.models.application.invite.getAllByApplication(fleetId, query),
  );
  return invites.map((i) => ({
    id: i.id,
    invitee: i.invitee[0]?.email ?? '',
    role: i.application_membership_role[0]?.name ?? null,
    createdAt: i.created_at,
  }));
}

export const fleetInvitesQueryOptions = (fleetId: number) =>
  queryOptions({ queryKey: fleetInvitesQueryKey(fleetId), queryFn: () => getFleetInvites(fleetId) });

export function useFleetInvites(fleetId: number, enabled: boolean) {
  return useQuery({ ...fleetInvitesQueryOptions(fleetId), enabled });
}
