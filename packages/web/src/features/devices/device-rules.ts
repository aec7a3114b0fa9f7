/**
 * Pure device rules of the dashboard (spec 2 §4 action availability and batch results,
 * §9 metrics bar colours). No React, no I/O: unit-tested beside this file.
 */

/** Spec 2 §9: up to 60 % success, up to 80 % warning, above that error. */
export type MetricColour = 'success' | 'warning' | 'error';

export function metricColour(percent: number): MetricColour {
  if (percent <= 60) return 'success';
  if (percent <= 80) return 'warning';
  return 'error';
}

/** A usage as a whole percentage of its total, clamped to 0–100; undefined without data. */
export function usagePercent(usage: number | null | undefined, total: number | null | undefined): number | undefined {
  if (usage === null || usage === undefined || total === null || total === undefined || total <= 0) return undefined;
  return Math.min(100, Math.max(0, Math.round((usage / total) * 100)));
}

/** What "last seen" is read from: the cloud link and the API heartbeat (dialect §4.4). */
export interface SeenFacts {
  is_online: boolean;
  last_connectivity_event: string | null;
  api_heartbeat_at?: string | null | undefined;
}

/**
 * When the device was last seen: now while its cloud link is up (it is being seen), else the
 * later of its last connectivity event (link or heartbeat state change) and its last state
 * poll; null when never.
 */
export function lastSeen(device: SeenFacts): { now: true } | { now: false; at: string | null } {
  if (device.is_online) return { now: true };
  const times = [device.last_connectivity_event, device.api_heartbeat_at].filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)));
  if (times.length === 0) return { now: false, at: null };
  return { now: false, at: times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)) };
}

// The action reasons, the update-lock test and the action call live in lib (the actions page uses them too).
export {
  actionDisabledReason,
  contractSupportsBlink,
  DEVICE_ACTIONS,
  isUpdateLocked,
  type ActionFacts,
  type DeviceAction,
  type DisabledReason,
} from '../../lib/device-action-rules';

/**
 * Spec 2 §4 batch actions: all failing → fail with the first error; some failing → a warning
 * 'operation failed for N of the selected items'; none failing → 'operation completed successfully'.
 */
export type BatchOutcome = { kind: 'success' } | { kind: 'partial'; failed: number } | { kind: 'failed'; error: unknown };

export function batchOutcome(results: readonly PromiseSettledResult<unknown>[]): BatchOutcome {
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failures.length === 0) return { kind: 'success' };
  if (failures.length === results.length) return { kind: 'failed', error: failures[0]!.reason };
  return { kind: 'partial', failed: failures.length };
}

/** Spec 2 §5: confirmation lists show at most 10 items; the rest are counted. */
export const CONFIRM_LIST_MAX = 10;

export function confirmList<T>(items: readonly T[]): { shown: T[]; more: number } {
  return { shown: items.slice(0, CONFIRM_LIST_MAX), more: Math.max(0, items.length - CONFIRM_LIST_MAX) };
}
