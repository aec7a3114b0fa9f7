/**
 * Device liveness from the API heartbeat (spec 2 §9 polling, dialect §4.4). Every target
 * state poll is a heartbeat; a device is `online` while it polled within its interval plus
 * a grace of a third of it (spec 2 §9: "default 15 s with grace 0.33"), `timeout` up to
 * twice that window, `offline` beyond, and `unknown` when it never polled.
 */
export type HeartbeatState = 'online' | 'timeout' | 'offline' | 'unknown';

/** Spec 2 §9: the default poll interval and the grace fraction added to it. */
export const DEFAULT_POLL_INTERVAL_MS = 15_000;
export const HEARTBEAT_GRACE = 0.33;

export function heartbeatState(lastPollAt: Date | number | null | undefined, pollIntervalMs: number = DEFAULT_POLL_INTERVAL_MS, now: Date | number = Date.now()): HeartbeatState {
  if (lastPollAt === null || lastPollAt === undefined) return 'unknown';
  const elapsed = +now - +lastPollAt;
  const window = pollIntervalMs * (1 + HEARTBEAT_GRACE);
  if (elapsed <= window) return 'online';
  if (elapsed <= 2 * window) return 'timeout';
  return 'offline';
}
