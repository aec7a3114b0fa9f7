import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { effectiveAccess, type AccessItem } from '../member-access';
import { organizationQueryKey } from './get-organization';

export const memberAccessQueryKey = (organizationId: number, membershipId: number) =>
  [...organizationQueryKey(organizationId), 'member-access', membershipId] as const;

export type MemberAccessItem = AccessItem;

export interface MemberAccess {
  membershipId: number;
  userId: number;
  username: string | undefined;
  role: string | null;
  teams: { id: number; name: string }[];
  access: MemberAccessItem[];
}

/**
 * One organization membership (spec 1 §2 member summary): the user, their organization
 * role, the organization's teams they are in, and the fleets/blocks of the organization
 * they can access, directly (user_application_membership) or through those teams.
 * Null when the membership is missing or not of this organization.
 */
export async function getMemberAccess(organizationId: number, membershipId: number): Promise<MemberAccess | null> {
  const membership = await sdk.pine.get({
    resource: 'organization_membership',
    id: membershipId,
    options: {
      $select: ['id', 'user', 'is_member_of__organization'],
      $expand: { user: { $select: ['id', 'username'] }, organization_membership_role: { $select: ['name'] } },
    },
  });
  if (!membership || membership.is_member_of__organization.__id !== organizationId) return null;
  const userId = membership.user[0]?.id;
  if (userId === undefined) return null;
  const role = membership.organization_membership_role[0]?.name ?? null;
  const [teams, direct, organizationApps] = await Promise.all([
    sdk.pine.get({
      resource: 'team',
      options: {
        $select: ['id', 'name'],
        $filter: { belongs_to__organization: organizationId },
        $expand: {
          team_membership: { $select: ['id'], $filter: { user: userId } },
          team_application_access: {
            $select: ['id'],
            $expand: {
              grants_access_to__application: { $select: ['id', 'app_name', 'is_of__class'] },
              application_membership_role: { $select: ['name'] },
            },
          },
        },
        $orderby: { name: 'asc' },
      },
    }),
    sdk.pine.get({
      resource: 'user_application_membership',
      options: {
        $select: ['id'],
        $filter: { user: userId },
        $expand: {
          is_member_of__application: { $select: ['id', 'app_name', 'is_of__class', 'organization'] },
          application_membership_role: { $select: ['name'] },
        },
      },
    }),
    // An organization administrator reaches every application of the organization.
    role === 'administrator'
      ? sdk.pine.get({ resource: 'application', options: { $select: ['id', 'app_name', 'is_of__class'], $filter: { organization: organizationId } } })
      : Promise.resolve([]),
  ]);
  const memberTeams = teams.filter((team) => team.team_membership.length > 0);
  const access: MemberAccessItem[] = [];
  for (const m of direct) {
    const app = m.is_member_of__application[0];
    if (!app || app.organization.__id !== organizationId) continue;
    access.push({ key: `u${m.id}`, applicationId: app.id, name: app.app_name, appClass: app.is_of__class, role: m.application_membership_role[0]?.name ?? '', via: undefined });
  }
  for (const team of memberTeams) {
    for (const a of team.team_application_access) {
      const app = a.grants_access_to__application[0];
      if (!app) continue;
      access.push({ key: `t${a.id}`, applicationId: app.id, name: app.app_name, appClass: app.is_of__class, role: a.application_membership_role[0]?.name ?? '', via: team.name });
    }
  }
  return {
    membershipId: membership.id,
    userId,
    username: membership.user[0]?.username,
    role,
    teams: memberTeams.map((team) => ({ id: team.id, name: team.name })),
    access: effectiveAccess(role, access, organizationApps),
  };
}

export const memberAccessQueryOptions = (organizationId: number, membershipId: number) =>
  queryOptions({
    queryKey: memberAccessQueryKey(organizationId, membershipId),
    queryFn: () => getMemberAccess(organizationId, membershipId),
  });

export function useMemberAccess(organizationId: number, membershipId: number) {
  return useQuery(memberAccessQueryOptions(organizationId, membershipId));
}
