import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { releaseSearchFilter } from '../release-search';
import { RELEASE_PAGE_SIZE, RELEASE_REFETCH_MS, releaseListKey } from './keys';

export interface ReleaseRow {
  id: number;
  commit: string;
  raw_version: string;
  status: string;
  source: string;
  created_at: string;
  update_timestamp: string;
  is_invalidated: boolean;
  is_final: boolean;
  creator: string | null;
  tags: { tag_key: string; value: string }[];
}

export interface ReleasePage {
  rows: ReleaseRow[];
  total: number;
}

/**
 * One page of a fleet's releases, newest first (spec 2 §7: getAllByApplication, page size
 * 50, with search), and how many match in all (release/$count with the same filter).
 */
export async function getReleases(fleetId: number, page: number, search: string): Promise<ReleasePage> {
  const searchFilter = releaseSearchFilter(search);
  const $filter = searchFilter ? { $and: [{ belongs_to__application: fleetId }, searchFilter] } : { belongs_to__application: fleetId };
  const [releases, total] = await Promise.all([
    sdk.models.release.getAllByApplication(fleetId, {
      $select: ['id', 'commit', 'raw_version', 'status', 'source', 'created_at', 'update_timestamp', 'is_invalidated', 'is_final'],
      $expand: {
        is_created_by__user: { $select: ['username'] },
        release_tag: { $select: ['tag_key', 'value'], $orderby: { tag_key: 'asc' } },
      },
      ...(searchFilter ? { $filter: searchFilter } : {}),
      $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
      $top: RELEASE_PAGE_SIZE,
      $skip: page * RELEASE_PAGE_SIZE,
    }),
    sdk.pine.get({ resource: 'release', options: { $count: { $filter } } }),
  ]);
  return {
    total,
    rows: releases.map(({ is_created_by__user, release_tag, ...r }) => ({
      ...r,
      creator: is_created_by__user?.[0]?.username ?? null,
      tags: release_tag.map((tag) => ({ tag_key: tag.tag_key, value: tag.value })),
    })),
  };
}

export const releasesQueryOptions = (fleetId: number, page: number, search: string) =>
  queryOptions({
    queryKey: [...releaseListKey(fleetId), page, search],
    queryFn: () => getReleases(fleetId, page, search),
    refetchInterval: RELEASE_REFETCH_MS,
    // Paging or typing keeps the last page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export function useReleases(fleetId: number, page: number, search: string) {
  return useQuery(releasesQueryOptions(fleetId, page, search));
}
