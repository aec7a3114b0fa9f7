import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { deviceKey } from './keys';

export interface DeviceTag {
  id: number;
  tag_key: string;
  value: string;
}

export const deviceTagsKey = (uuid: string) => [...deviceKey(uuid), 'tags'] as const;

/** device.tags.getAllByDevice (spec 2 §7 "device tags"), ordered by key. */
export async function getDeviceTags(uuid: string): Promise<DeviceTag[]> {
  const tags = await sdk.models.device.tags.getAllByDevice(uuid, { $select: ['id', 'tag_key', 'value'], $orderby: { tag_key: 'asc' } });
  return tags.map(({ id, tag_key, value }) => ({ id, tag_key, value }));
}

export const deviceTagsQueryOptions = (uuid: string) => queryOptions({ queryKey: deviceTagsKey(uuid), queryFn: () => getDeviceTags(uuid) });

export function useDeviceTags(uuid: string) {
  return useQuery(deviceTagsQueryOptions(uuid));
}

export function useInvalidateDeviceTags(uuid: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: deviceTagsKey(uuid) });
}
