import { targetStateVersionFor } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

const stateKey = (uuid: string, which: string) => ['device', uuid, 'supervisor-state', which] as const;

/**
 * The supervisor's current state (spec 2 §7), read from the device over its cloud link:
 * balena-sdk `device.getSupervisorState(uuid)` (`POST /supervisor/v1/device`). Read once per
 * visit to the tab and on demand; the device answers live, so no background polling.
 */
export function useSupervisorCurrentState(uuid: string) {
  return useQuery({
    queryKey: stateKey(uuid, 'current'),
    queryFn: () => sdk.models.device.getSupervisorState(uuid) as Promise<unknown>,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** The target state the server holds for the device: v2 below supervisor 13.0.0, else v3 (spec 2 §7, §9). */
export function useSupervisorTargetState(uuid: string, supervisorVersion: string | null) {
  const version = targetStateVersionFor(supervisorVersion);
  return {
    version,
    ...useQuery({
      queryKey: [...stateKey(uuid, 'target'), version],
      queryFn: () => sdk.models.device.getSupervisorTargetState(uuid, version) as Promise<unknown>,
      retry: false,
      refetchOnWindowFocus: false,
    }),
  };
}
