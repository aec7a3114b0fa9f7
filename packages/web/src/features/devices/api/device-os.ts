import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AGENT_BUILD_TAG } from '@flotilla/model';
import { pineGet } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import { osUpdateStartProblem, type SupervisorRelease } from '../os-rules';
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
}

export async function getDeviceOsTargets(uuid: string): Promise<DeviceOsTargets | null> {
  const [d] = await pineGet('device', {
    $select: ['id'],
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
  };
}

const osTargetsKey = (uuid: string) => [...deviceKey(uuid), 'os-targets'] as const;

export function useDeviceOsTargets(uuid: string) {
  return useQuery({ queryKey: osTargetsKey(uuid), queryFn: () => getDeviceOsTargets(uuid), refetchInterval: DEVICE_REFETCH_MS });
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
 * Starts the OS update action (`device.startOsUpdate`: the actions service's resinhup) to
 * `version`; resolves only when its status is `triggered`, else rejects with spec 2 §4's
 * 'Cannot start the update process' (and the action's error).
 */
export function useStartOsUpdate(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (version: string) => {
      const result = await sdk.models.device.startOsUpdate(uuid, version);
      const problem = osUpdateStartProblem(result);
      if (problem) throw new Error(problem);
      return result;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKey(uuid) }),
  });
}
