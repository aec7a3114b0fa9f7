import type { AuditedVariableResource, VariableChangeAction } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';

/** The six variable resources whose writes the server records (`variable_change.variable_kind`). */
export type VariableKindResource = AuditedVariableResource;

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
  action: VariableChangeAction;
  old_value: string | null;
  new_value: string | null;
  actor_name: string | null;
}

/** How many changes the dialog shows (newest first). */
export const HISTORY_LIMIT = 50;

export async function getVariableHistory(target: HistoryTarget): Promise<VariableChange[]> {
  const rows = await pineGet('variable_change', {
    $select: ['id', 'created_at', 'action', 'old_value', 'new_value', 'actor_name'],
    $filter: {
      application: target.fleetId,
      variable_kind: target.kind,
      name: target.name,
      device: target.deviceId ?? null,
      service: target.serviceId ?? null,
    },
    // Newest first; the id breaks ties of one transaction.
    $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
    $top: HISTORY_LIMIT,
  });
  return rows.map((r) => ({ ...r, created_at: String(r.created_at), action: r.action as VariableChangeAction }));
}

export const historyKey = (target: HistoryTarget) =>
  ['fleet', target.fleetId, 'variable-history', target.kind, target.name, target.deviceId ?? null, target.serviceId ?? null] as const;

export function useVariableHistory(target: HistoryTarget) {
  return useQuery({ queryKey: historyKey(target), queryFn: () => getVariableHistory(target) });
}
