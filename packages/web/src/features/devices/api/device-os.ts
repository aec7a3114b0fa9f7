import { ACTIONS_SERVICE_PATH, AGENT_BUILD_TAG, OS_UPDATE_ACTION, OS_UPDATE_DEVICE_STATUS, type OsUpdateTriggered } from '@flotilla/model';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import type { GroupDevice } from '../os-group-rules';
import { osUpdateStartProblem, type CatalogueOsVersion, type SupervisorRelease } from '../os-rules';
import { mapWithConcurrency } from '../reason-checks';
import { DEVICE_REFETCH_MS, deviceKey } from './keys';
import { CATALOGUE_STALE_MS } from './os-catalogue';

export { useOsVersions } from './os-catalogue';

/**
 * The host OS and supervisor catalogue as the device pages read it: through balena-sdk's
 * `os.*` (public catalogue fleets, readable by everyone), like balena's dashboard.
 */

/** `os.getSupervisorReleasesForCpuArchitecture(arch)`: the architecture's supervisor releases. */
export function useSupervisorReleases(architecture: string | undefined) {
  return useQuery({
    queryKey: ['os-catalogue', 'supervisor', architecture],
    queryFn: async (): Promise<SupervisorRelease[]> =>
      (
        await sdk.models.os.getSupervisorReleasesForCpuArchitecture(architecture!, {
          $select: ['id', 'raw_version'],
          $expand: { release_tag: { $select: ['tag_key'], $filter: { tag_key: AGENT_BUILD_TAG } } },
        })
      ).map((r) => ({ id: r.id, raw_version: r.raw_version, hasAgentBuild: (r.release_tag?.length ?? 0) > 0 })),
    enabled: architecture !== undefined && architecture !== '',
    staleTime: CATALOGUE_STALE_MS,
  });
}

/** The device's CPU architecture and the OS and supervisor releases it is told to run (null: none named). */
export interface DeviceOsTargets {
  architecture: string;
  osRelease: string | null;
  supervisorRelease: string | null;
  /** While the host OS updates (status 'Updating host OS'): the step and percentage the device reports. */
  osUpdate: { step: string | null; progress: number | null } | null;
}

export async function getDeviceOsTargets(uuid: string): Promise<DeviceOsTargets | null> {
  const [d] = await pineGet('device', {
    $select: ['id', 'status', 'provisioning_state', 'provisioning_progress'],
    $filter: { uuid },
    $expand: {
      is_of__device_type: { $select: ['id'], $expand: { is_of__cpu_architecture: { $select: ['slug'] } } },
      should_be_operated_by__release: { $select: ['id', 'raw_version'] },
      should_be_managed_by__release: { $select: ['id', 'raw_version'] },
    },
  });
  if (!d) return null;
  return {
    architecture: d.is_of__device_type[0]?.is_of__cpu_architecture[0]?.slug ?? '',
    osRelease: d.should_be_operated_by__release[0]?.raw_version ?? null,
    supervisorRelease: d.should_be_managed_by__release[0]?.raw_version ?? null,
    osUpdate: d.status === OS_UPDATE_DEVICE_STATUS ? { step: d.provisioning_state, progress: d.provisioning_progress } : null,
  };
}

/** While an OS update runs, its progress is re-read this often. */
const OS_UPDATE_REFETCH_MS = 3_000;

const osTargetsKey = (uuid: string) => [...deviceKey(uuid), 'os-targets'] as const;

export function useDeviceOsTargets(uuid: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: osTargetsKey(uuid),
    queryFn: async () => {
      const previous = queryClient.getQueryData<DeviceOsTargets | null>(osTargetsKey(uuid));
      const next = await getDeviceOsTargets(uuid);
      // The update ended (the device rebooted into the new OS): the device's versions changed.
      if (previous?.osUpdate && !next?.osUpdate) void queryClient.invalidateQueries({ queryKey: deviceKey(uuid), exact: true });
      return next;
    },
    refetchInterval: (query) => (query.state.data?.osUpdate ? OS_UPDATE_REFETCH_MS : DEVICE_REFETCH_MS),
  });
}

/**
 * Sets the device's supervisor release (`device.pinToSupervisorRelease` with the release's
 * id: the server checks the catalogue and spec 2 §4's rules and answers 400 with its message
 * otherwise), then refreshes the device.
 */
export function usePinSupervisorRelease(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (releaseId: number) => sdk.models.device.pinToSupervisorRelease(uuid, releaseId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKey(uuid) }),
  });
}

/**
 * Starts the host OS update of one device to `version` (spec 2 §7 startOsUpdate): the actions
 * service's `POST /{v2}/{uuid}/resinhup` with balena-sdk's body `{parameters: {target_version}}`.
 * balena-sdk's `device.startOsUpdate` cannot reach it: it always posts to
 * `https://actions.<deviceUrlsBase>` (no option names another actions URL), a host that a
 * dashboard served from its own origin (and over http in development) does not have; it also
 * re-checks with balena's own rules first. So this is the one place the dashboard calls the
 * endpoint, through `sdk.request` on its own origin under ACTIONS_SERVICE_PATH, and lets the
 * server decide. Resolves only when the status is `triggered`, else rejects with spec 2 §4's
 * 'Cannot start the update process' (and the action's error); a refusal rejects with the
 * server's message.
 */
export async function startOsUpdate(uuid: string, version: string): Promise<OsUpdateTriggered> {
  const { body } = await sdk.request.send<Partial<OsUpdateTriggered> & { status?: string; error?: string }>({
    method: 'POST',
    baseUrl: window.location.origin,
    url: `${ACTIONS_SERVICE_PATH}/v2/${encodeURIComponent(uuid)}/${OS_UPDATE_ACTION}`,
    body: { parameters: { target_version: version } },
  });
  const problem = osUpdateStartProblem(body);
  if (problem) throw new Error(problem);
  return body as OsUpdateTriggered;
}

/** `startOsUpdate` for the device's settings page, refreshing the device afterwards. */
export function useStartOsUpdate(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: string) => startOsUpdate(uuid, version),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKey(uuid) }),
  });
}

/** A device of a group update as the dialog shows it: the rules' inputs and its progress. */
export interface GroupDeviceRow extends GroupDevice {
  status: string | null;
  provisioningState: string | null;
  provisioningProgress: number | null;
  osRelease: string | null;
  supervisorRelease: string | null;
}

/** Devices read per request of a group update (the `$in` list stays short). */
const GROUP_READ_CHUNK = 100;

/** The selected devices' OS, supervisor, type and progress fields, in chunks of 100 ids. */
export async function getGroupDevices(ids: readonly number[]): Promise<GroupDeviceRow[]> {
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += GROUP_READ_CHUNK) chunks.push(ids.slice(i, i + GROUP_READ_CHUNK));
  const rows = await mapWithConcurrency(chunks, 2, (chunk) =>
    pineGet('device', {
      $select: ['id', 'uuid', 'device_name', 'is_online', 'os_version', 'os_variant', 'supervisor_version', 'status', 'provisioning_state', 'provisioning_progress'],
      $filter: { id: { $in: chunk } },
      $top: chunk.length,
      $expand: {
        is_of__device_type: { $select: ['slug'], $expand: { is_of__cpu_architecture: { $select: ['slug'] } } },
        should_be_operated_by__release: { $select: ['raw_version'] },
        should_be_managed_by__release: { $select: ['raw_version'] },
      },
    }),
  );
  const byId = new Map(
    rows.flat().map((d) => [
      d.id,
      {
        id: d.id,
        uuid: d.uuid,
        name: d.device_name,
        deviceType: d.is_of__device_type[0]?.slug ?? '',
        architecture: d.is_of__device_type[0]?.is_of__cpu_architecture[0]?.slug ?? '',
        isOnline: d.is_online,
        osVersion: d.os_version,
        osVariant: d.os_variant,
        supervisorVersion: d.supervisor_version,
        status: d.status,
        provisioningState: d.provisioning_state,
        provisioningProgress: d.provisioning_progress,
        osRelease: d.should_be_operated_by__release[0]?.raw_version ?? null,
        supervisorRelease: d.should_be_managed_by__release[0]?.raw_version ?? null,
      } satisfies GroupDeviceRow,
    ]),
  );
  // In the selection's order; a device deleted meanwhile drops out.
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The group's devices, re-read every `refetchMs` while an update runs (else once). */
export function useGroupDevices(ids: readonly number[], refetchMs: number | false) {
  return useQuery({ queryKey: ['device-group', [...ids].sort((a, b) => a - b)], queryFn: () => getGroupDevices(ids), refetchInterval: refetchMs });
}

/** The OS catalogue of each device type (`os.getAvailableOsVersions`), keyed by slug; undefined until all are read. */
export function useOsVersionsByType(slugs: readonly string[]) {
  return useQueries({
    queries: slugs.map((slug) => ({ queryKey: ['os-catalogue', 'os', slug], queryFn: async (): Promise<CatalogueOsVersion[]> => sdk.models.os.getAvailableOsVersions(slug), staleTime: CATALOGUE_STALE_MS })),
    combine: (results) => ({
      data: results.every((r) => r.data !== undefined) ? new Map(slugs.map((slug, i) => [slug, results[i]!.data!])) : undefined,
      isError: results.some((r) => r.isError),
    }),
  });
}

/** The supervisor releases of each CPU architecture, keyed by architecture; undefined until all are read. */
export function useSupervisorReleasesByArch(architectures: readonly string[]) {
  return useQueries({
    queries: architectures.map((architecture) => ({
      queryKey: ['os-catalogue', 'supervisor', architecture],
      queryFn: async (): Promise<SupervisorRelease[]> =>
        (await sdk.models.os.getSupervisorReleasesForCpuArchitecture(architecture, { $select: ['id', 'raw_version'] })).map((r) => ({ id: r.id, raw_version: r.raw_version })),
      staleTime: CATALOGUE_STALE_MS,
    })),
    combine: (results) => ({
      data: results.every((r) => r.data !== undefined) ? new Map(architectures.map((a, i) => [a, results[i]!.data!])) : undefined,
      isError: results.some((r) => r.isError),
    }),
  });
}

/** Sets one device's supervisor release by id (the group update's call per device). */
export const pinSupervisorRelease = (uuid: string, releaseId: number) => sdk.models.device.pinToSupervisorRelease(uuid, releaseId);
