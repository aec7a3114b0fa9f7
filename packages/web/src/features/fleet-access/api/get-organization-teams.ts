import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetKey } from './keys';

/** The teams of the fleet's organization, by name: what the add-team dialog offers. */
export async function getOrganizationTeams(organizationId: number) {
  const teams = await sdk.pine.get({
    resource: 'team',
    options: { $select: ['id', 'name'], $filter: { belongs_to__organization: organizationId }, $orderby: { name: 'asc' } },
  });
  return teams.map((team) => ({ id: team.id, name: team.name }));
}

export const organizationTeamsQueryOptions = (fleetId: number, organizationId: number) =>
  queryOptions({ queryKey: [...fleetKey(fleetId), 'organization-teams', organizationId], queryFn: () => getOrganizationTeams(organizationId) });

export function useOrganizationTeams(fleetId: number, organizationId: number) {
  return useQuery(organizationTeamsQueryOptions(fleetId, organizationId));
}
