import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { RELEASE_REFETCH_MS, releaseKey } from './keys';

export interface ReleaseImage {
  id: number;
  service_name: string;
  status: string;
  location: string;
  image_size: number | string | null;
  start_timestamp: string | null;
  end_timestamp: string | null;
  push_timestamp: string | null;
  error_message: string | null;
  dockerfile: string | null;
  build_log: string | null;
}

export interface ReleaseDetails {
  id: number;
  fleetId: number;
  commit: string;
  raw_version: string;
  semver: string;
  status: string;
  source: string;
  created_at: string;
  composition: unknown;
  build_log: string | null;
  start_timestamp: string | null;
  update_timestamp: string;
  end_timestamp: string | null;
  is_invalidated: boolean;
  is_final: boolean;
  known_issue_list: string | null;
  note: string | null;
  creator: string | null;
  tags: { tag_key: string; value: string }[];
  images: ReleaseImage[];
  /** Whether a fleet targets (is pinned to) this release: 'cannot delete pinned releases'. */
  isFleetTarget: boolean;
}

const fkId = (fk: unknown): number | undefined => (typeof fk === 'object' && fk !== null && '__id' in fk ? (fk as { __id: number }).__id : undefined);

/**
 * GET release({id}) with its images (spec 2 §7), creator, tags and the fleets that target
 * it; null when it does not exist, cannot be read, or belongs to another fleet.
 */
export async function getRelease(fleetId: number, releaseId: number): Promise<ReleaseDetails | null> {
  const r = await sdk.pine.get({
    resource: 'release',
    id: releaseId,
    options: {
      $select: [
        'id',
        'belongs_to__application',
        'commit',
        'raw_version',
        'semver',
        'status',
        'source',
        'created_at',
        'composition',
        'build_log',
        'start_timestamp',
        'update_timestamp',
        'end_timestamp',
        'is_invalidated',
        'is_final',
        'known_issue_list',
        'note',
      ],
      $expand: {
        is_created_by__user: { $select: ['username'] },
        release_tag: { $select: ['tag_key', 'value'], $orderby: { tag_key: 'asc' } },
        should_be_running_on__application: { $select: ['id'] },
        release_image: {
          $select: ['id'],
          $expand: {
            image: {
              $select: [
                'id',
                'status',
                'is_stored_at__image_location',
                'image_size',
                'start_timestamp',
                'end_timestamp',
                'push_timestamp',
                'error_message',
                'dockerfile',
                'build_log',
              ],
              $expand: { is_a_build_of__service: { $select: ['service_name'] } },
            },
          },
        },
      },
    },
  });
  if (!r || fkId(r.belongs_to__application) !== fleetId) return null;
  const images = r.release_image
    .flatMap((ri) => ri.image)
    .map(
      (img): ReleaseImage => ({
        id: img.id,
        service_name: img.is_a_build_of__service[0]?.service_name ?? '',
        status: img.status,
        location: img.is_stored_at__image_location,
        image_size: img.image_size,
        start_timestamp: img.start_timestamp,
        end_timestamp: img.end_timestamp,
        push_timestamp: img.push_timestamp,
        error_message: img.error_message,
        dockerfile: img.dockerfile,
        build_log: img.build_log,
      }),
    )
    .sort((a, b) => a.service_name.localeCompare(b.service_name));
  return {
    id: r.id,
    fleetId,
    commit: r.commit,
    raw_version: r.raw_version,
    semver: r.semver,
    status: r.status,
    source: r.source,
    created_at: r.created_at,
    composition: r.composition,
    build_log: r.build_log,
    start_timestamp: r.start_timestamp,
    update_timestamp: r.update_timestamp,
    end_timestamp: r.end_timestamp,
    is_invalidated: r.is_invalidated,
    is_final: r.is_final,
    known_issue_list: r.known_issue_list,
    note: r.note,
    creator: r.is_created_by__user?.[0]?.username ?? null,
    tags: r.release_tag.map((tag) => ({ tag_key: tag.tag_key, value: tag.value })),
    images,
    isFleetTarget: r.should_be_running_on__application.length > 0,
  };
}

export const releaseQueryOptions = (fleetId: number, releaseId: number) =>
  queryOptions({
    queryKey: releaseKey(releaseId),
    queryFn: () => getRelease(fleetId, releaseId),
    refetchInterval: RELEASE_REFETCH_MS,
  });

export function useRelease(fleetId: number, releaseId: number) {
  return useQuery(releaseQueryOptions(fleetId, releaseId));
}
