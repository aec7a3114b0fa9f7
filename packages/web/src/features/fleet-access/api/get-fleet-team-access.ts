import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

export interface FleetTeamAccess {
  id: number;
  teamId: number;
  teamName: string;
  memberCount: number;
  role: string;
}

export const fleetTeamAccessQueryKey = (fleetId: number) => [...fleetKey(fleetId), 'team-access'] as const;

/** team_application_access of the fleet (fleet developers and up may read it), by team name. */
export async function getFleetTeamAccess(fleetId: number): Promise<FleetTeamAccess[]> {
  const rows = await sdk.pine.get({
    resource: 'team_application_access',
    options: {
      $select: ['id'],
      $filter: { grants_access_to__application: fleetId },
      $expand: {
        team: { $select: ['id', 'name'], $expand: { team_membership: { $count: {} } } },
        application_membership_role: { $select: ['name'] },
      },
    },
  });
  return rows
    .flatMap((a) => {
      const team = a.team[0];
      if (!team) return [];
      return [{ id: a.id, teamId: team.id, teamName: team.name, memberCount: team.team_membership, role: a.application_membership_role[0]?.name ?? '' }];
    })
    .sort((a, b) => a.teamName.localeCompare(b.teamName));
}

export const fleetTeamAccessQueryOptions = (fleetId: number) =>
  queryOptions({ queryKey: fleetTeamAccessQueryKey(fleetId), queryFn: () => getFleetTeamAccess(fleetId) });

export function useFleetTeamAccess(fleetId: number) {
  return useQuery(fleetTeamAccessQueryOptions(fleetId));
}
