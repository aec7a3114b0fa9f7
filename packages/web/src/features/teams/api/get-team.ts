import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

export const teamQueryKey = (teamId: number) => [...teamsRootKey, 'detail', teamId] as const;

/** Spec 1 §9: team detail is polled on an interval. */
export const TEAM_POLL_MS = 30_000;

export interface TeamMember {
  membershipId: number;
  userId: number;
  username: string | undefined;
}

export interface TeamAccess {
  id: number;
  applicationId: number;
  appName: string;
  appClass: string;
  role: string;
}

export interface TeamDetails {
  id: number;
  name: string;
  created_at: string;
  organizationId: number;
  members: TeamMember[];
  access: TeamAccess[];
}

/** One team with its memberships (usernames) and application access (with roles), or null. */
export async function getTeam(teamId: number): Promise<TeamDetails | null> {
  const team = await sdk.pine.get({
    resource: 'team',
    id: teamId,
    options: {
      $select: ['id', 'name', 'created_at', 'belongs_to__organization'],
      $expand: {
        team_membership: { $select: ['id', 'user'], $expand: { user: { $select: ['id', 'username'] } } },
        team_application_access: {
          $select: ['id'],
          $expand: {
            grants_access_to__application: { $select: ['id', 'app_name', 'is_of__class'] },
            application_membership_role: { $select: ['name'] },
          },
        },
      },
    },
  });
  if (!team) return null;
  return {
    id: team.id,
    name: team.name,
    created_at: team.created_at,
    organizationId: team.belongs_to__organization.__id,
    members: team.team_membership
      .map((m) => ({ membershipId: m.id, userId: m.user[0]?.id ?? 0, username: m.user[0]?.username }))
      .sort((a, b) => (a.username ?? '\uffff').localeCompare(b.username ?? '\uffff')),
    access: team.team_application_access.flatMap((a) => {
      const app = a.grants_access_to__application[0];
      if (!app) return [];
      return [
        {
          id: a.id,
          applicationId: app.id,
          appName: app.app_name,
          appClass: app.is_of__class,
          role: a.application_membership_role[0]?.name ?? '',
        },
      ];
    }),
  };
}

export const teamQueryOptions = (teamId: number) =>
  queryOptions({ queryKey: teamQueryKey(teamId), queryFn: () => getTeam(teamId), refetchInterval: TEAM_POLL_MS });

export function useTeam(teamId: number) {
  return useQuery(teamQueryOptions(teamId));
}
