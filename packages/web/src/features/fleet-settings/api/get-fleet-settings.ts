import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { fleetSettingsKey } from './keys';

export interface FleetSettings {
  id: number;
  app_name: string;
  slug: string;
  uuid: string;
  created_at: string;
  is_of__class: 'fleet' | 'app' | 'block';
  is_public: boolean;
  is_stored_at__repository_url: string | null;
  is_accessible_by_support_until__date: string | null;
  should_track_latest_release: boolean;
  /** The fleet's actor: its provisioning keys are api_key rows of this actor. */
  actorId: number;
  organization: { id: number; name: string; handle: string };
  applicationType: { slug: string; name: string; is_legacy: boolean } | null;
  deviceType: { id: number; slug: string; name: string; cpuArchitecture: { id: number; slug: string } | null } | null;
  targetRelease: { id: number; commit: string; raw_version: string } | null;
}

/** The application with everything the summary and settings pages show (spec 2 §3, §7). */
export async function getFleetSettings(fleetId: number): Promise<FleetSettings | null> {
  const app = await sdk.pine.get({
    resource: 'application',
    id: fleetId,
    options: {
      $select: [
        'id',
        'app_name',
        'slug',
        'uuid',
        'created_at',
        'is_of__class',
        'is_public',
        'is_stored_at__repository_url',
        'is_accessible_by_support_until__date',
        'should_track_latest_release',
        'actor',
      ],
      $expand: {
        organization: { $select: ['id', 'name', 'handle'] },
        application_type: { $select: ['slug', 'name', 'is_legacy'] },
        is_for__device_type: { $select: ['id', 'slug', 'name'], $expand: { is_of__cpu_architecture: { $select: ['id', 'slug'] } } },
        should_be_running__release: { $select: ['id', 'commit', 'raw_version'] },
      },
    },
  });
  const organization = app?.organization[0];
  if (!app || !organization) return null;
  const type = app.application_type[0];
  const deviceType = app.is_for__device_type[0];
  const arch = deviceType?.is_of__cpu_architecture[0];
  const release = app.should_be_running__release[0];
  return {
    id: app.id,
    app_name: app.app_name,
    slug: app.slug,
    uuid: app.uuid,
    created_at: app.created_at,
    is_of__class: app.is_of__class as FleetSettings['is_of__class'],
    is_public: app.is_public,
    is_stored_at__repository_url: app.is_stored_at__repository_url,
    is_accessible_by_support_until__date: app.is_accessible_by_support_until__date,
    should_track_latest_release: app.should_track_latest_release,
    actorId: (app.actor as unknown as { __id: number }).__id,
    organization: { id: organization.id, name: organization.name, handle: organization.handle },
    applicationType: type ? { slug: type.slug, name: type.name, is_legacy: type.is_legacy } : null,
    deviceType: deviceType
      ? { id: deviceType.id, slug: deviceType.slug, name: deviceType.name, cpuArchitecture: arch ? { id: arch.id, slug: arch.slug } : null }
      : null,
    targetRelease: release ? { id: release.id, commit: release.commit, raw_version: release.raw_version } : null,
  };
}

export const fleetSettingsQueryOptions = (fleetId: number) =>
  queryOptions({ queryKey: [...fleetSettingsKey(fleetId), 'detail'], queryFn: () => getFleetSettings(fleetId) });

export function useFleetSettings(fleetId: number) {
  return useQuery(fleetSettingsQueryOptions(fleetId));
}
