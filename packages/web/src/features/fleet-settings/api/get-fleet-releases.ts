import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetSettingsKey } from './keys';

export interface FleetReleaseRow {
  id: number;
  commit: string;
  raw_version: string;
  status: string;
  created_at: string;
  is_invalidated: boolean;
}

/** Spec 2 §7: release lists page at 50. */
const RELEASE_PAGE_SIZE = 50;

/**
 * The fleet's releases with one of `statuses`, newest first: the summary card lists success
 * and running ones; the default-release setting offers the valid successful ones.
 */
export async function getFleetReleases(fleetId: number, statuses: readonly string[]): Promise<FleetReleaseRow[]> {
  const rows = await sdk.pine.get({
    resource: 'release',
    options: {
      $select: ['id', 'commit', 'raw_version', 'status', 'created_at', 'is_invalidated'],
      $filter: { belongs_to__application: fleetId, status: { $in: [...statuses] } },
      $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
      $top: RELEASE_PAGE_SIZE,
    },
  });
  return rows.map((r) => ({
    id: r.id,
    commit: r.commit,
    raw_version: r.raw_version,
    status: r.status,
    created_at: r.created_at,
    is_invalidated: r.is_invalidated,
  }));
}

export const fleetReleasesQueryOptions = (fleetId: number, statuses: readonly string[]) =>
  queryOptions({
    queryKey: [...fleetSettingsKey(fleetId), 'releases', ...statuses],
    queryFn: () => getFleetReleases(fleetId, statuses),
    // Spec 2 §9: release lists refetch every 6 s.
    refetchInterval: 6_000,
  });

export function useFleetReleases(fleetId: number, statuses: readonly string[], enabled = true) {
  return useQuery({ ...fleetReleasesQueryOptions(fleetId, statuses), enabled });
}
