import { LOCAL_MODE_VARIABLES } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { pineGet } from '../../../lib/pine';
import { deviceKey, DEVICE_REFETCH_MS } from './keys';

/** Summary-card facts beyond the shell's device: local mode and the public device URL. */
export interface DeviceSummaryFacts {
  localMode: boolean;
  /** The device's web URL, only while its public URL is on (spec 2 §2). */
  webUrl: string | null;
}

export async function getDeviceSummaryFacts(uuid: string): Promise<DeviceSummaryFacts> {
  const [d] = await pineGet('device', {
    $select: ['id', 'is_web_accessible'],
    $filter: { uuid },
    $expand: { device_config_variable: { $select: ['name', 'value'], $filter: { name: { $in: [...LOCAL_MODE_VARIABLES] } } } },
  });
  if (!d) return { localMode: false, webUrl: null };
  const localMode = d.device_config_variable.some((v) => v.value === '1');
  // device.getDeviceUrl builds it from the API's /config deviceUrlsBase.
  const webUrl = d.is_web_accessible ? await sdk.models.device.getDeviceUrl(uuid).catch(() => null) : null;
  return { localMode, webUrl };
}

export function useDeviceSummaryFacts(uuid: string) {
  return useQuery({ queryKey: [...deviceKey(uuid), 'summary-facts'], queryFn: () => getDeviceSummaryFacts(uuid), refetchInterval: DEVICE_REFETCH_MS });
}
