import type { DeviceLogLine } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';

/** A service whose lines the panel can name and filter. */
export interface LogService {
  id: number;
  name: string;
}

/**
 * The services a device's lines can come from: its fleet's services (a device runs only its
 * fleet's releases), by name. Lines of a service not listed (a device moved from another
 * fleet) still show, under `service {id}`.
 */
export async function getLogServices(fleetId: number): Promise<LogService[]> {
  const rows = await pineGet('service', { $select: ['id', 'service_name'], $filter: { application: fleetId }, $orderby: { service_name: 'asc' } });
  return rows.map((s) => ({ id: s.id, name: s.service_name }));
}

export function useLogServices(fleetId: number) {
  return useQuery({ queryKey: ['fleet', fleetId, 'log-services'], queryFn: () => getLogServices(fleetId), staleTime: 60_000 });
}

/** Spec 2 §7: the log history for a download (`logs.history`, every stored line). */
export async function getLogHistory(uuid: string): Promise<DeviceLogLine[]> {
  return (await sdk.logs.history(uuid, { count: 'all' })) as unknown as DeviceLogLine[];
}

/** `DELETE /device/v2/{uuid}/logs` (needs `resin.device_log.delete`; the server decides). */
export async function clearDeviceLogs(uuid: string): Promise<void> {
  await sdk.request.send({ method: 'DELETE', baseUrl: window.location.origin, url: `/device/v2/${encodeURIComponent(uuid)}/logs` });
}
