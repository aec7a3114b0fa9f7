import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

export interface FleetMember {
  id: number;
  userId: number;
  username: string | undefined;
  role: string;
  /** The user's membership of the fleet's organization (its member page); none for fleet-only members. */
  organizationMembershipId: number | undefined;
}

export const fleetMembersQueryKey = (fleetId: number) => [...fleetKey(fleetId), 'members'] as const;

/**
 * user_application_membership of the fleet, ordered by username (spec 2 §2), each with the
 * user's organization membership id when they hold one (and the caller may read it).
 */
export async function getFleetMembers(fleetId: number, organizationId: number): Promise<FleetMember[]> {
  const [memberships, orgMemberships] = await Promise.all([
    sdk.pine.get({
      resource: 'user_application_membership',
      options: {
        $select: ['id', 'user'],
        $filter: { is_member_of__application: fleetId },
        $expand: { user: { $select: ['id', 'username'] }, application_membership_role: { $select: ['name'] } },
      },
    }),
    sdk.pine.get({
      resource: 'organization_membership',
      options: { $select: ['id', 'user'], $filter: { is_member_of__organization: organizationId } },
    }),
  ]);
  const orgMembershipOf = new Map(orgMemberships.map((m) => [m.user.__id, m.id]));
  return memberships
    .map((m) => ({
      id: m.id,
      userId: m.user[0]?.id ?? 0,
      username: m.user[0]?.username,
      role: m.application_membership_role[0]?.name ?? '',
      organizationMembershipId: m.user[0] ? orgMembershipOf.get(m.user[0].id) : undefined,
    }))
    .sort((a, b) => (a.username ?? '\uffff').localeCompare(b.username ?? '\uffff'));
}

export const fleetMembersQueryOptions = (fleetId: number, organizationId: number) =>
  queryOptions({ queryKey: fleetMembersQueryKey(fleetId), queryFn: () => getFleetMembers(fleetId, organizationId) });

export function useFleetMembers(fleetId: number, organizationId: number) {
  return useQuery(fleetMembersQueryOptions(fleetId, organizationId));
}
