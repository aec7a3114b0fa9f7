import { ACTION_RUN_LIMITS, type HealthCheck, type HealthCheckOutput } from '@flotilla/model';
import type { ServiceStatus } from './report.js';

/**
 * The device's health checks (issue 15 item 3, spec 2 §3 health check result): each check is
 * `{name, success, status}` with a status sentence the user can act on. This file is the pure
 * judgement (thresholds, parsing); `health-checks-host.ts` gathers the real facts and the
 * simulator makes up plausible ones. Names follow balena's device-diagnostics checks.
 */

/** The version of this set of checks and of the diagnose text (`diagnose_version`). */
export const DIAGNOSE_VERSION = '1.0.0';

export const CHECK_NAMES = {
  engine: 'check_container_engine',
  disk: 'check_localdiskspace',
  memory: 'check_memory',
  time: 'check_timesync',
  restarts: 'check_service_restarts',
  api: 'check_networking',
  voltage: 'check_under_voltage',
} as const;

export const THRESHOLDS = {
  /** Disk: fail when less than this share of the data filesystem is free… */
  diskFreeMinShare: 0.1,
  /** …or less than this many bytes. */
  diskFreeMinBytes: 256 * 1024 * 1024,
  /** Memory: fail when MemAvailable is under this share of MemTotal. */
  memoryAvailableMinShare: 0.1,
  /** Clock: fail when the device's clock is further than this from the server's (ms). */
  clockMaxOffsetMs: 10_000,
  /** Restarts: a service the engine restarted this many times (or restarting now) is looping. */
  restartLoopCount: 3,
  /** API: fail when the last successful poll is older than this many poll intervals… */
  apiPollIntervals: 2,
  /** …plus this slack (ms). */
  apiSlackMs: 60_000,
} as const;

/** What the device loop knows that the checks need (device.ts `diagnosticFacts()`). */
export interface DeviceRuntimeFacts {
  /** Local clock now (ms). */
  now: number;
  /** Local time of the last successful target-state poll (ms), null before the first. */
  lastPollOkAt: number | null;
  /** The server's `Date` header of that poll (ms), when it sent one. */
  lastPollServerDate: number | null;
  pollIntervalMs: number;
  linkUp: boolean;
  /** The running release's services and their last read status. */
  serviceStatus: Record<string, ServiceStatus>;
}

/** What a device's diagnostics provider answers: the real host's or the simulator's. */
export interface DeviceDiagnostics {
  checks(facts: DeviceRuntimeFacts): Promise<HealthCheckOutput>;
  diagnose(facts: DeviceRuntimeFacts): Promise<{ stdout: string; stderr: string }>;
}

const pass = (name: string, status: string): HealthCheck => ({ name, success: true, status });
const failed = (name: string, status: string): HealthCheck => ({ name, success: false, status });

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

// --- container engine ------------------------------------------------------------------------

/** `version` from the engine's ping/version, or the error; `null` when the agent runs without one. */
export function engineCheck(result: { version: string } | { error: string } | null): HealthCheck {
  const name = CHECK_NAMES.engine;
  if (result === null) return pass(name, 'No container engine is configured (--engine none): services are simulated, nothing to check');
  if ('error' in result) {
    return failed(name, `The container engine does not answer (${result.error}). Check that it is running (systemctl status docker or podman) and that DOCKER_HOST points at it`);
  }
  return pass(name, `The container engine answers (version ${result.version})`);
}

// --- disk ----------------------------------------------------------------------------------

export interface DiskFacts {
  path: string;
  /** Bytes available to the agent (statfs bavail × bsize) and the filesystem's size. */
  freeBytes: number;
  totalBytes: number;
}

export function diskCheck(disk: DiskFacts | { error: string }): HealthCheck {
  const name = CHECK_NAMES.disk;
  if ('error' in disk) return failed(name, `The free disk space could not be read (${disk.error})`);
  const share = disk.totalBytes > 0 ? disk.freeBytes / disk.totalBytes : 0;
  const what = `${formatBytes(disk.freeBytes)} of ${formatBytes(disk.totalBytes)} (${Math.round(share * 100)} %) free on ${disk.path}`;
  if (share < THRESHOLDS.diskFreeMinShare || disk.freeBytes < THRESHOLDS.diskFreeMinBytes) {
    return failed(name, `Low disk space: ${what}. Remove unused images and volumes or data written by the services, or use a larger disk`);
  }
  return pass(name, `Enough disk space: ${what}`);
}

/** `statfs` numbers → free (for unprivileged users) and total bytes. */
export function diskFromStatfs(path: string, s: { blocks: number; bavail: number; bsize: number }): DiskFacts {
  return { path, freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
}

// --- memory --------------------------------------------------------------------------------

/** `MemTotal` and `MemAvailable` of /proc/meminfo in bytes; null when either is missing. */
export function parseMeminfo(text: string): { totalBytes: number; availableBytes: number } | null {
  const field = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  };
  const total = field('MemTotal');
  const available = field('MemAvailable');
  if (total === null || available === null || total <= 0) return null;
  return { totalBytes: total, availableBytes: available };
}

export function memoryCheck(mem: { totalBytes: number; availableBytes: number } | { error: string }): HealthCheck {
  const name = CHECK_NAMES.memory;
  if ('error' in mem) return failed(name, `The free memory could not be read (${mem.error})`);
  const share = mem.availableBytes / mem.totalBytes;
  const what = `${formatBytes(mem.availableBytes)} of ${formatBytes(mem.totalBytes)} (${Math.round(share * 100)} %) available`;
  if (share < THRESHOLDS.memoryAvailableMinShare) {
    return failed(name, `Low memory: ${what}. Find the service using it (docker stats) and limit or fix it`);
  }
  return pass(name, `Enough memory: ${what}`);
}

// --- clock ---------------------------------------------------------------------------------

/**
 * The clock against the server's `Date` header of the last successful poll (1 s resolution,
 * plus the request's time in flight: hence a 10 s threshold). Before any poll the check says
 * so without failing (there is nothing to compare with).
 */
export function timeCheck(facts: Pick<DeviceRuntimeFacts, 'lastPollOkAt' | 'lastPollServerDate'>): HealthCheck {
  const name = CHECK_NAMES.time;
  if (facts.lastPollOkAt === null || facts.lastPollServerDate === null) {
    return pass(name, 'The clock could not be compared yet: no answer from the API with a Date header so far');
  }
  const offset = facts.lastPollOkAt - facts.lastPollServerDate;
  const side = offset > 0 ? 'ahead of' : 'behind';
  if (Math.abs(offset) > THRESHOLDS.clockMaxOffsetMs) {
    return failed(name, `The device clock is ${formatDuration(offset)} ${side} the server's. Enable time synchronisation (NTP: timedatectl set-ntp true) and check that the device reaches a time server`);
  }
  return pass(name, `The device clock agrees with the server's (within ${THRESHOLDS.clockMaxOffsetMs / 1000} s, compared at the last poll)`);
}

// --- restart loops -------------------------------------------------------------------------

export interface ServiceRestarts {
  service: string;
  restartCount: number;
  state: string;
}

export function restartsCheck(services: ServiceRestarts[] | { error: string } | null): HealthCheck {
  const name = CHECK_NAMES.restarts;
  if (services === null) return pass(name, 'No container engine: no service restarts to check');
  if ('error' in services) return failed(name, `The services' restart counts could not be read (${services.error})`);
  const looping = services.filter((s) => s.restartCount >= THRESHOLDS.restartLoopCount || s.state === 'restarting');
  if (looping.length > 0) {
    const list = looping.map((s) => `${s.service} (${s.restartCount} restarts${s.state === 'restarting' ? ', restarting now' : ''})`).join(', ');
    return failed(name, `Some services keep restarting: ${list}. Read their logs to see why they exit, and fix the service or its configuration`);
  }
  if (services.length === 0) return pass(name, 'No service is running on this device');
  return pass(name, `No service is restarting in a loop (${services.length} checked)`);
}

// --- API connectivity ----------------------------------------------------------------------

export function apiCheck(facts: Pick<DeviceRuntimeFacts, 'now' | 'lastPollOkAt' | 'pollIntervalMs'>): HealthCheck {
  const name = CHECK_NAMES.api;
  if (facts.lastPollOkAt === null) {
    return failed(name, 'The device has not reached the API yet. Check its network, DNS and the API address in config.json');
  }
  const age = Math.max(0, facts.now - facts.lastPollOkAt);
  const limit = facts.pollIntervalMs * THRESHOLDS.apiPollIntervals + THRESHOLDS.apiSlackMs;
  if (age > limit) {
    return failed(name, `The last successful poll of the API was ${formatDuration(age)} ago (expected every ${formatDuration(facts.pollIntervalMs)}). Check the device's network, proxy and DNS`);
  }
  return pass(name, `The API answered ${formatDuration(age)} ago`);
}

// --- under-voltage -------------------------------------------------------------------------

/** Raspberry Pi firmware's `get_throttled` bits (documented by the firmware's vcgencmd). */
export const THROTTLED_BITS = {
  underVoltageNow: 1 << 0,
  frequencyCappedNow: 1 << 1,
  throttledNow: 1 << 2,
  softTempLimitNow: 1 << 3,
  underVoltageOccurred: 1 << 16,
  frequencyCappedOccurred: 1 << 17,
  throttledOccurred: 1 << 18,
  softTempLimitOccurred: 1 << 19,
} as const;

/** `0x50005`, `50005` (sysfs) or `throttled=0x50005` (vcgencmd) → the number; null otherwise. */
export function parseThrottled(text: string): number | null {
  const m = /(?:throttled=)?(?:0x)?([0-9a-f]+)\s*$/i.exec(text.trim());
  if (!m) return null;
  const n = Number.parseInt(m[1]!, 16);
  return Number.isFinite(n) ? n : null;
}

/** `null`: the hardware does not tell (not a failure). */
export function voltageCheck(throttled: { value: number; source: string } | null): HealthCheck {
  const name = CHECK_NAMES.voltage;
  if (throttled === null) return pass(name, 'Under-voltage is not reported by this hardware');
  const v = throttled.value;
  if (v & THROTTLED_BITS.underVoltageNow) {
    return failed(name, `The device is under-voltage now (${throttled.source}). Use a power supply that gives enough current, and a short, thick cable`);
  }
  if (v & THROTTLED_BITS.underVoltageOccurred) {
    return failed(name, `The device was under-voltage since it booted (${throttled.source}). Use a power supply that gives enough current, and a short, thick cable`);
  }
  return pass(name, `No under-voltage since boot (${throttled.source})`);
}

// --- the output ----------------------------------------------------------------------------

/** The output as the actions service stores it, each field within its bounds. */
export function checksOutput(checks: HealthCheck[]): HealthCheckOutput {
  const L = ACTION_RUN_LIMITS;
  return {
    checks: checks.slice(0, L.maxChecks).map((c) => ({
      name: c.name.slice(0, L.maxCheckNameChars),
      success: c.success,
      status: c.status.slice(0, L.maxCheckStatusChars),
    })),
    diagnose_version: DIAGNOSE_VERSION,
  };
}
