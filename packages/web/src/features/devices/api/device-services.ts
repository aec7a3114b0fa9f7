import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { pineGetOne } from '../../../lib/pine';
import type { ServiceAction } from '../service-rules';
import { deviceKey } from './keys';

/** One installed image of a service on the device (image_install + its release). */
export interface ServiceInstall {
  imageId: number;
  status: string;
  downloadProgress: number | null;
  release: { id: number; commit: string; raw_version: string } | null;
}

export interface DeviceService {
  name: string;
  /** Newest first; empty for a service of the target release that is not installed yet. */
  installs: ServiceInstall[];
}

/** Spec 2 §9: the default polling interval (15 s); an action refetches at once. */
export const SERVICES_REFETCH_MS = 15_000;

export const deviceServicesKey = (uuid: string) => [...deviceKey(uuid), 'services'] as const;

/**
 * The device's services: the target release's services (by its images) and the device's
 * image_install rows, which carry each service's status and download progress (dialect §3).
 */
export async function getDeviceServices(uuid: string, targetReleaseId: number | null): Promise<DeviceService[]> {
  const [device, release] = await Promise.all([
    pineGetOne(
      'device',
      { uuid },
      {
        $select: 'id',
        $expand: {
          image_install: {
            $select: ['id', 'status', 'download_progress', 'install_date'],
            $filter: { status: { $ne: 'deleted' } },
            $expand: {
              installs__image: { $select: 'id', $expand: { is_a_build_of__service: { $select: ['id', 'service_name'] } } },
              is_provided_by__release: { $select: ['id', 'commit', 'raw_version'] },
            },
          },
        },
      },
    ),
    targetReleaseId === null
      ? Promise.resolve(undefined)
      : pineGetOne('release', targetReleaseId, {
          $select: 'id',
          $expand: { release_image: { $select: 'id', $expand: { image: { $select: 'id', $expand: { is_a_build_of__service: { $select: 'service_name' } } } } } },
        }),
  ]);
  const byName = new Map<string, ServiceInstall[]>();
  for (const ri of release?.release_image ?? []) {
    const name = ri.image[0]?.is_a_build_of__service[0]?.service_name;
    if (name && !byName.has(name)) byName.set(name, []);
  }
  const installs = [...(device?.image_install ?? [])].sort((a, b) => Date.parse(b.install_date) - Date.parse(a.install_date) || b.id - a.id);
  for (const ii of installs) {
    const image = ii.installs__image[0];
    const name = image?.is_a_build_of__service[0]?.service_name;
    if (!image || !name) continue;
    const list = byName.get(name) ?? [];
    list.push({ imageId: image.id, status: ii.status, downloadProgress: ii.download_progress, release: ii.is_provided_by__release[0] ?? null });
    byName.set(name, list);
  }
  return [...byName.entries()].map(([name, list]) => ({ name, installs: list })).sort((a, b) => a.name.localeCompare(b.name));
}

export const deviceServicesQueryOptions = (uuid: string, targetReleaseId: number | null) =>
  queryOptions({
    queryKey: [...deviceServicesKey(uuid), targetReleaseId] as const,
    queryFn: () => getDeviceServices(uuid, targetReleaseId),
    refetchInterval: SERVICES_REFETCH_MS,
  });

export function useDeviceServices(uuid: string, targetReleaseId: number | null) {
  return useQuery(deviceServicesQueryOptions(uuid, targetReleaseId));
}

/**
 * `POST /supervisor/v2/applications/{appId}/{action}-service` with
 * `{deviceId, appId, data: {appId, imageId, force?}}` (dialect §2); 423 on an update lock.
 */
export async function runServiceAction(
  target: { deviceId: number; appId: number },
  action: ServiceAction,
  imageId: number,
  force = false,
): Promise<void> {
  const data: Record<string, unknown> = { appId: target.appId, imageId };
  if (force) data.force = true;
  await sdk.request.send({
    method: 'POST',
    baseUrl: window.location.origin,
    url: `/supervisor/v2/applications/${target.appId}/${action}-service`,
    body: { deviceId: target.deviceId, appId: target.appId, data },
  });
}
