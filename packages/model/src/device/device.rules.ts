/**
 * Device liveness from the API heartbeat (dialect §4.4). Every target state poll is a
 * heartbeat; a device is `online` while it polled within its poll interval plus a grace of a
 * third of it (spec 2 §9: "grace 0.33"), `timeout` up to twice that window, `offline` beyond,
 * and `unknown` when it never polled.
 */
export type HeartbeatState = 'online' | 'timeout' | 'offline' | 'unknown';

/**
 * A device's poll interval when no BALENA_SUPERVISOR_POLL_INTERVAL config variable sets one:
 * 10 minutes (dialect §4.2 "server default 10 min"). One value for the server's heartbeat
 * sweep, the agent and the device-type configuration default (docs/decisions.md).
 */
export const DEFAULT_POLL_INTERVAL_MS = 10 * 60_000;
export const HEARTBEAT_GRACE = 0.33;

export function heartbeatState(lastPollAt: Date | number | null | undefined, pollIntervalMs: number = DEFAULT_POLL_INTERVAL_MS, now: Date | number = Date.now()): HeartbeatState {
  if (lastPollAt === null || lastPollAt === undefined) return 'unknown';
  const elapsed = +now - +lastPollAt;
  const window = pollIntervalMs * (1 + HEARTBEAT_GRACE);
  if (elapsed <= window) return 'online';
  if (elapsed <= 2 * window) return 'timeout';
  return 'offline';
}

/** The leading major version of a version string ('16.1.0', 'v4.0', 'balenaOS 2.11.0'), or undefined. */
export function majorVersion(version: string | null | undefined): number | undefined {
  const match = version?.match(/(\d+)(?:\.\d+)*/);
  return match ? Number(match[1]) : undefined;
}

/** The names of the config variable that turns local mode on (value '1'), spec 2 §5. */
export const LOCAL_MODE_VARIABLES = ['RESIN_SUPERVISOR_LOCAL_MODE', 'BALENA_SUPERVISOR_LOCAL_MODE'] as const;

/** Spec 2 §4: local mode needs a dev OS variant and a supervisor version of 4 or newer. */
export function supportsLocalMode(device: { os_variant: string | null; supervisor_version: string | null }): boolean {
  const major = majorVersion(device.supervisor_version);
  return device.os_variant === 'dev' && major !== undefined && major >= 4;
}

/**
 * Spec 2 §4 deactivate: an already inactive device gives 'device already inactive'; it needs
 * a disconnected device ('device must be offline'). The key of the reason, or undefined.
 */
export function deactivateProblem(device: { is_active: boolean; is_online: boolean }): 'device_already_inactive' | 'device_must_be_offline' | undefined {
  if (!device.is_active) return 'device_already_inactive';
  if (device.is_online) return 'device_must_be_offline';
  return undefined;
}

/** The English texts of the device rules' keys (spec 2 §4, §8), shared by server and dashboard. */
export const DEVICE_RULE_MESSAGES = {
  device_already_inactive: 'device already inactive',
  device_must_be_offline: 'device must be offline',
  local_mode_unsupported: 'Local mode needs a development OS variant and supervisor 4 or newer',
  no_blink_support: 'Device does not support blinking',
  not_fully_provisioned: 'Action not supported until fully provisioned',
  not_available_in_local_mode: 'not available in local mode',
} as const;

/**
 * The OS variant a version string names in its trailing parentheses, as balena reads it when
 * a write sets `os_version` without `os_variant`: 'balenaOS 2.88.4 (dev)' → 'dev'; none → null.
 */
export function osVariantOf(osVersion: string): string | null {
  return /^.*\((.+)\)$/.exec(osVersion)?.[1] ?? null;
}
