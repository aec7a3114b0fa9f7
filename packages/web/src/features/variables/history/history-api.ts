import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** The six variable resources whose writes the server records (contract B `variable_kind`). */
export type VariableKindResource =
  | 'application_config_variable'
  | 'application_environment_variable'
  | 'service_environment_variable'
  | 'device_config_variable'
  | 'device_environment_variable'
  | 'device_service_environment_variable';

/** Which variable's history: its resource, name and, where they apply, its device and service. */
export interface HistoryTarget {
  fleetId: number;
  kind: VariableKindResource;
  name: string;
  deviceId?: number | null;
  serviceId?: number | null;
}

/** One recorded change (`variable_change`). */
export interface VariableChange {
  id: number;
  created_at: string;
  action: 'create' | 'update' | 'delete';
  old_value: string | null;
  new_value: string | null;
  actor_name: string | null;
}

/** How many changes the dialog shows (newest first). */
export const HISTORY_LIMIT = 50;

export async function getVariableHistory(target: HistoryTarget): Promise<VariableChange[]> {
  const rows = await sdk.pine.get({
    resource: 'variable_change',
    options: {
      $select: ['id', 'created_at', 'action', 'old_value', 'new_value', 'actor_name'],
      $filter: {
        application: target.fleetId,
        variable_kind: target.kind,
        name: target.name,
        device: target.deviceId ?? null,
        service: target.serviceId ?? null,
      },
      $orderby: { created_at: 'desc' },
      $top: HISTORY_LIMIT,
    },
  } as never);
  return rows as unknown as VariableChange[];
}

export const historyKey = (target: HistoryTarget) =>
  ['fleet', target.fleetId, 'variable-history', target.kind, target.name, target.deviceId ?? null, target.serviceId ?? null] as const;

export function useVariableHistory(target: HistoryTarget) {
  return useQuery({ queryKey: historyKey(target), queryFn: () => getVariableHistory(target) });
}
