import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { organizationQueryKey } from './get-organization';

export const organizationMembersQueryKey = (organizationId: number) => [...organizationQueryKey(organizationId), 'members'] as const;

export interface OrganizationMember {
  membershipId: number;
  userId: number;
  /** Undefined when the user's record is not readable (see below). */
  username: string | undefined;
  role: string | null;
}

/**
 * The organization's memberships with each member's role, ordered by username (spec 1 §9).
 * Usernames come from an expand of the user; the server may leave that expand empty for
 * users other than oneself (until organization members may read each other's usernames),
 * so the user's id is read as well, for a 'User #id' fallback.
 */
export async function getOrganizationMembers(organizationId: number): Promise<OrganizationMember[]> {
  const [withIds, withNames] = await Promise.all([
    sdk.pine.get({
      resource: 'organization_membership',
      options: {
        $select: ['id', 'user'],
        $filter: { is_member_of__organization: organizationId },
        $expand: { organization_membership_role: { $select: ['name'] } },
      },
    }),
    sdk.pine.get({
      resource: 'organization_membership',
      options: {
        $select: ['id'],
        $filter: { is_member_of__organization: organizationId },
        $expand: { user: { $select: ['id', 'username'] } },
      },
    }),
  ]);
  const usernames = new Map(withNames.map((m) => [m.id, m.user[0]?.username]));
  return withIds
    .map((m) => ({
      membershipId: m.id,
      userId: m.user.__id,
      username: usernames.get(m.id),
      role: m.organization_membership_role[0]?.name ?? null,
    }))
    .sort((a, b) => (a.username ?? `\uffff${a.userId}`).localeCompare(b.username ?? `\uffff${b.userId}`));
}

export const organizationMembersQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: organizationMembersQueryKey(organizationId), queryFn: () => getOrganizationMembers(organizationId) });

export function useOrganizationMembers(organizationId: number) {
  return useQuery(organizationMembersQueryOptions(organizationId));
}
