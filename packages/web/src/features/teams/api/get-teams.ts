import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { teamsRootKey } from './keys';

export const teamsQueryKey = (organizationId: number) => [...teamsRootKey, 'list', organizationId] as const;

export interface TeamRow {
  id: number;
  name: string;
  created_at: string;
  memberCount: number;
  fleetCount: number;
}

/**
 * The organization's teams ordered by name (spec 1 §9), with member count
 * (team_membership/$count) and the number of fleets the team has access to.
 */
export async function getTeams(organizationId: number): Promise<TeamRow[]> {
  const teams = await sdk.pine.get({
    resource: 'team',
    options: {
      $select: ['id', 'name', 'created_at'],
      $filter: { belongs_to__organization: organizationId },
      $expand: {
        team_membership: { $count: {} },
        team_application_access: {
          $select: ['id'],
          $expand: { grants_access_to__application: { $select: ['id', 'is_of__class'] } },
        },
      },
      $orderby: { name: 'asc' },
    },
  });
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    created_at: team.created_at,
    memberCount: team.team_membership,
    fleetCount: team.team_application_access.filter((a) => a.grants_access_to__application[0]?.is_of__class === 'fleet').length,
  }));
}

export const teamsQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: teamsQueryKey(organizationId), queryFn: () => getTeams(organizationId) });

export function useTeams(organizationId: number) {
  return useQuery(teamsQueryOptions(organizationId));
}
