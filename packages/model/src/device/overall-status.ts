import type { HeartbeatState } from './device.rules.js';
import type { DeviceOverallStatus } from './device.resource.js';

/**
 * The facts a device's `overall_status` and `overall_progress` are computed from (spec 2 §4;
 * balena's computed definition, open-balena-api's device model with balenaCloud's is_active
 * case). The columns of the same names on `device`; `is_online` is the cloud link.
 */
export interface DeviceStatusFacts {
  is_active: boolean;
  provisioning_state: string | null;
  is_online: boolean;
  api_heartbeat_state: HeartbeatState;
  last_connectivity_event: Date | string | null;
  status: string | null;
  download_progress: number | null;
  provisioning_progress: number | null;
}

/** Never connected: no cloud link, no API heartbeat and no connectivity event. */
function neverConnected(d: DeviceStatusFacts): boolean {
  return !d.is_online && d.last_connectivity_event === null && d.api_heartbeat_state === 'unknown';
}

/** Disconnected: no cloud link and the heartbeat offline or unknown. */
function disconnected(d: DeviceStatusFacts): boolean {
  return !d.is_online && (d.api_heartbeat_state === 'offline' || d.api_heartbeat_state === 'unknown');
}

function downloading(d: DeviceStatusFacts): boolean {
  return d.download_progress !== null && d.status === 'Downloading';
}

/**
 * The precedence of a device's overall status, declared once: inactive > post-provisioning >
 * configuring (never connected) > disconnected > reduced-functionality (the cloud link up while
 * the heartbeat timed out, is offline or unknown; or the heartbeat online without the link) >
 * updating (downloading with a download progress) > configuring (a provisioning progress) >
 * operational. A link down with the heartbeat in 'timeout' is not reduced functionality
 * (balena's reading). The database's generated column `device.overall_status` (migration
 * 0024) computes the same; an API test checks that they agree on every combination of facts.
 */
export function deviceOverallStatus(d: DeviceStatusFacts): DeviceOverallStatus {
  if (!d.is_active) return 'inactive';
  if (d.provisioning_state === 'Post-Provisioning') return 'post-provisioning';
  if (neverConnected(d)) return 'configuring';
  if (disconnected(d)) return 'disconnected';
  const heartbeatDown = d.api_heartbeat_state !== 'online';
  if ((d.is_online && heartbeatDown) || (!d.is_online && d.api_heartbeat_state === 'online')) return 'reduced-functionality';
  if (downloading(d)) return 'updating';
  if (d.provisioning_progress !== null) return 'configuring';
  return 'operational';
}

/**
 * A device's overall progress (balena's `overall_progress`; generated column of migration 0024):
 * none while inactive or disconnected after having connected; the provisioning progress while
 * post-provisioning or never connected; the download progress while downloading; else the
 * provisioning progress.
 */
export function deviceOverallProgress(d: DeviceStatusFacts): number | null {
  if (!d.is_active) return null;
  if (d.provisioning_state === 'Post-Provisioning') return d.provisioning_progress;
  if (neverConnected(d)) return d.provisioning_progress;
  if (disconnected(d)) return null;
  if (downloading(d)) return d.download_progress;
  return d.provisioning_progress;
}
