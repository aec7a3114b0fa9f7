import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

export interface FleetInvite {
  id: number;
  invitee: string;
  role: string | null;
  createdAt: string | null;
}

export const fleetInvitesQueryKey = (fleetId: number) => [...fleetKey(fleetId), 'invites'] as const;

/** The fields our server returns; the SDK's generated types predate `created_at`. */
interface RawInvite {
  id: number;
  /** Expanded: the invitee row holding the e-mail (balena's model). */
  invitee: Array<{ email: string }> | { __id: number };
  created_at?: string | null;
  application_membership_role: Array<{ name: string }> | { __id: number };
}

/** Pending invites of the fleet (fleet administrators only; others get an empty list), newest first. */
export async function getFleetInvites(fleetId: number): Promise<FleetInvite[]> {
  const invites = (await sdk.models.application.invite.getAllByApplication(fleetId, {
    $expand: { application_membership_role: { $select: ['name'] }, invitee: { $select: ['email'] } },
    $orderby: { id: 'desc' },
  })) as unknown as RawInvite[];
  return invites.map((i) => ({
    id: i.id,
    invitee: Array.isArray(i.invitee) ? (i.invitee[0]?.email ?? '') : '',
    role: Array.isArray(i.application_membership_role) ? (i.application_membership_role[0]?.name ?? null) : null,
    createdAt: i.created_at ?? null,
  }));
}

export const fleetInvitesQueryOptions = (fleetId: number) =>
  queryOptions({ queryKey: fleetInvitesQueryKey(fleetId), queryFn: () => getFleetInvites(fleetId) });

export function useFleetInvites(fleetId: number, enabled: boolean) {
  return useQuery({ ...fleetInvitesQueryOptions(fleetId), enabled });
}
