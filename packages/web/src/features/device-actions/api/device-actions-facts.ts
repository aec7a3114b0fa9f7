import { LOCAL_MODE_VARIABLES } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';

/**
 * Whether the device is in local mode (a RESIN_/BALENA_SUPERVISOR_LOCAL_MODE config
 * variable of '1', spec 2 §5): some actions are not available then (spec 2 §4).
 */
export async function getLocalMode(uuid: string): Promise<boolean> {
  const [d] = await pineGet('device', {
    $select: 'id',
    $filter: { uuid },
    $expand: { device_config_variable: { $select: ['name', 'value'], $filter: { name: { $in: [...LOCAL_MODE_VARIABLES] } } } },
  });
  return d?.device_config_variable.some((v) => v.value === '1') ?? false;
}

/** Spec 2 §9: device pages poll every 60 s. */
export function useLocalMode(uuid: string) {
  return useQuery({ queryKey: ['device', uuid, 'local-mode'], queryFn: () => getLocalMode(uuid), refetchInterval: 60_000 });
}
