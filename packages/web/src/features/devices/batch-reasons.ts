import type { DeviceAction, DisabledReason } from './device-rules';
import { createTtlMemo, mapWithConcurrency, reasonKey, REASON_CACHE_MS, REASON_CHECK_CONCURRENCY } from './reason-checks';

/** What a device's reason check reads, per device: its link, status and device type contract. */
export interface DeviceFacts {
  is_online: boolean;
  overall_status: string | null;
  contract: unknown;
}
export type FetchDeviceFacts = (deviceId: number) => Promise<DeviceFacts>;
/**
 * The rule itself (device-rules.ts actionDisabledReason), passed in by the caller: the batch
 * actions already hold it, and this module loads lazily without a second copy of the rules.
 */
export type ReasonOf = (action: DeviceAction, facts: DeviceFacts) => DisabledReason | undefined;

export type BatchReasons = Map<number, DisabledReason | undefined>;

/**
 * Spec 2 §4: the disabled reason of `action` for each selected device. Each device's facts
 * are fetched with at most 10 checks in flight, and the result for (action, devices) is
 * reused for 5000 ms.
 */
export function createBatchReasonChecker(fetchFacts: FetchDeviceFacts, now: () => number = Date.now) {
  const memo = createTtlMemo<BatchReasons>(REASON_CACHE_MS, now);
  return (action: DeviceAction, deviceIds: readonly number[], allowed: boolean, reasonOf: ReasonOf): Promise<BatchReasons> =>
    memo.get(`${allowed ? 'y' : 'n'}:${reasonKey(action, deviceIds)}`, async () => {
      if (!allowed) return new Map(deviceIds.map((id) => [id, 'permission_denied' as const]));
      const reasons = await mapWithConcurrency(deviceIds, REASON_CHECK_CONCURRENCY, async (id) => reasonOf(action, await fetchFacts(id)));
      return new Map(deviceIds.map((id, i) => [id, reasons[i]]));
    });
}
