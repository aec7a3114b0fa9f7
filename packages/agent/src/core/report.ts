import type { TargetRelease } from './target-state.js';
import { deviceStatusFor, type UpdateSnapshot } from './update-progress.js';
import { OS_UPDATE_DEVICE_STATUS } from '@flotilla/model';
import type { HostUpdateFacts } from './os-update.js';

/**
 * Building the v3 state report (dialect §4.3) and throttling it: reports are diffs against
 * what the server last accepted, and metrics only count as a change when they moved
 * significantly (the server stores metrics at most once a minute anyway).
 */

export interface Metrics {
  cpu_usage: number; // %
  cpu_temp: number | null; // °C
  memory_usage: number; // MB
  memory_total: number; // MB
  storage_usage: number; // MB
  storage_total: number; // MB
  storage_block_device: string | null;
  cpu_id: string | null;
}

export type ServiceStatus =
  | 'Running'
  | 'Idle'
  | 'Stopped'
  | 'Downloading'
  | 'Downloaded'
  | 'Installing'
  | 'Installed'
  | 'Restarting'
  | 'Exited'
  | 'Paused'
  | 'Stopping';

export interface DeviceFacts {
  osVersion: string;
  osVariant: string;
  supervisorVersion: string;
  /** A host OS update under way (progress and step), or ended (both null: cleared on the server); absent: nothing to say. */
  hostUpdate?: HostUpdateFacts | null;
  ipAddress: string;
  macAddress: string;
  isUndervolted: boolean;
  latitude?: string;
  longitude?: string;
  metrics: Metrics | null;
  appUuid: string | null;
  /** The release whose services run now, with each service's status. */
  running: TargetRelease | null;
  serviceStatus: Record<string, ServiceStatus>;
  /** The release being installed, if an update is under way. */
  installing: TargetRelease | null;
  update: UpdateSnapshot | null;
  /** Per-service install state of the release being installed (engine mode); else one status from `update`. */
  installProgress?: Record<string, { status: ServiceStatus; progress: number | null }> | null;
}

/** One device's report fields (the value under its uuid in the PATCH body). */
export type ReportFields = Record<string, unknown>;

export const METRIC_FIELDS = ['cpu_usage', 'cpu_temp', 'memory_usage', 'memory_total', 'storage_usage', 'storage_total'] as const;

/** How far a metric must move to be worth a report (absolute units of the field). */
export function metricThreshold(field: (typeof METRIC_FIELDS)[number], total: number | null): number {
  switch (field) {
    case 'cpu_usage':
      return 10; // percentage points
    case 'cpu_temp':
      return 2; // °C
    case 'memory_usage':
    case 'storage_usage':
      return Math.max(1, (total ?? 0) * 0.05); // 5 % of the total
    default:
      return 1;
  }
}

export function buildReport(f: DeviceFacts): ReportFields {
  const update = f.update;
  const out: ReportFields = {
    status: deviceStatusFor(update),
    os_version: f.osVersion,
    os_variant: f.osVariant,
    supervisor_version: f.supervisorVersion,
    ip_address: f.ipAddress,
    mac_address: f.macAddress,
    is_undervolted: f.isUndervolted,
    is_online: true,
    update_status: update?.phase ?? 'done',
    download_progress: update && update.phase === 'downloading' ? update.progress : null,
  };
  if (f.hostUpdate) {
    out.provisioning_progress = f.hostUpdate.progress;
    out.provisioning_state = f.hostUpdate.state;
    if (f.hostUpdate.progress !== null) out.status = OS_UPDATE_DEVICE_STATUS;
  }
  if (f.latitude !== undefined && f.longitude !== undefined) {
    out.latitude = f.latitude;
    out.longitude = f.longitude;
  }
  if (f.metrics) Object.assign(out, f.metrics);
  if (f.appUuid !== null) {
    const releases: Record<string, unknown> = {};
    if (f.running) {
      const services: Record<string, unknown> = {};
      for (const s of f.running.services) services[s.name] = { image: s.image, status: f.serviceStatus[s.name] ?? 'Running', download_progress: null };
      releases[f.running.commit] = { update_status: 'done', services };
    }
    if (f.installing && update && update.phase !== 'done' && f.installing.commit !== f.running?.commit) {
      const status: ServiceStatus = update.phase === 'downloading' ? 'Downloading' : 'Installing';
      const services: Record<string, unknown> = {};
      for (const s of f.installing.services) {
        const own = f.installProgress?.[s.name];
        services[s.name] = own
          ? { image: s.image, status: own.status, download_progress: own.progress }
          : { image: s.image, status, download_progress: update.phase === 'downloading' ? update.progress : 100 };
      }
      releases[f.installing.commit] = { update_status: update.phase, services };
    }
    // release_uuid names the release that runs; balena uses the release commit for it.
    out.apps = { [f.appUuid]: { release_uuid: f.running?.commit ?? null, releases } };
  }
  return out;
}

/**
 * The supervisor's own state as its `GET /v1/device` answers it (balena-sdk
 * `device.getSupervisorState`, relayed as the `device` action): the release that runs, the
 * update under way, and the device facts the supervisor reports.
 */
export function supervisorDeviceState(f: DeviceFacts): Record<string, unknown> {
  const update = f.update;
  const pending = update !== null && update.phase !== 'done';
  return {
    // balena's field: where the supervisor's local API listens. The agent serves none (its API is the cloud link).
    api_port: null,
    status: deviceStatusFor(update),
    commit: f.running?.commit ?? null,
    download_progress: update && update.phase === 'downloading' ? update.progress : null,
    update_pending: pending,
    update_downloaded: pending && update.phase !== 'downloading',
    update_failed: false,
    os_version: f.osVersion,
    supervisor_version: f.supervisorVersion,
    ip_address: f.ipAddress,
    mac_address: f.macAddress,
  };
}

/**
 * The fields of `next` worth sending given what the server last accepted (`sent`). With
 * `includeMetrics` false (inside the metrics interval) metric fields are left out entirely;
 * otherwise a metric goes only when it moved past its threshold. Returns null when there
 * is nothing to send.
 */
export function diffReport(sent: ReportFields | null, next: ReportFields, includeMetrics: boolean): ReportFields | null {
  const out: ReportFields = {};
  const metricSet = new Set<string>(METRIC_FIELDS);
  for (const [key, value] of Object.entries(next)) {
    if (metricSet.has(key)) continue;
    if (sent === null || !sameJson(sent[key], value)) out[key] = value;
  }
  if (includeMetrics) {
    const metricsOut: ReportFields = {};
    for (const field of METRIC_FIELDS) {
      if (!(field in next)) continue;
      const value = next[field];
      const before = sent?.[field];
      const total = field === 'memory_usage' ? (next.memory_total as number) : field === 'storage_usage' ? (next.storage_total as number) : null;
      if (typeof value !== 'number' || typeof before !== 'number' || Math.abs(value - before) >= metricThreshold(field, total)) {
        if (!sameJson(before, value)) metricsOut[field] = value;
      }
    }
    Object.assign(out, metricsOut);
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** What the server now holds after accepting `diff` on top of `sent`. */
export function mergeSent(sent: ReportFields | null, diff: ReportFields): ReportFields {
  return { ...(sent ?? {}), ...diff };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
