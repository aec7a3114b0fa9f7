import { deactivateProblem, isArchitectureCompatibleWith, supportsLocalMode } from '@flotilla/model';

/**
 * Pure rules of the device settings page (spec 2 §4 action availability, §5 Devices move,
 * §9 constants). No React, no I/O: unit-tested beside this file.
 */

/** Spec 2 §5 "Local mode variable RESIN_SUPERVISOR_LOCAL_MODE equals 1". */
export const LOCAL_MODE_VARIABLE = 'RESIN_SUPERVISOR_LOCAL_MODE';

/** `[major, minor, patch]` of the first dotted version in `version`, or undefined. */
function versionParts(version: string | null): [number, number, number] | undefined {
  const match = version?.match(/(\d+)\.(\d+)(?:\.(\d+))?/);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

/**
 * Spec 2 §4: local mode needs a dev OS variant and a supervisor version of 4 or newer; like
 * balena-sdk's enableLocalMode, also a provisioned device (one that has connected). Returns
 * the message key of the reason it is unavailable, or undefined.
 */
export function localModeUnavailable(device: {
  os_variant: string | null;
  supervisor_version: string | null;
  last_connectivity_event: string | null;
}): 'local_mode_unsupported' | 'not_fully_provisioned' | undefined {
  if (!supportsLocalMode(device)) return 'local_mode_unsupported';
  if (device.last_connectivity_event === null) return 'not_fully_provisioned';
  return undefined;
}

/**
 * Spec 2 §4 deactivate: an already inactive device gives 'device already inactive'; it needs
 * a disconnected device ('device must be offline'). The paid-plan condition (issue 18) is the
 * model's `deactivationProblem` over the organization's plan (device settings).
 */
export const deactivateUnavailable = deactivateProblem;

export interface MoveFleet {
  id: number;
  app_name: string;
  /** The CPU architecture slug of the fleet's default device type. */
  architecture: string;
}

/**
 * Spec 2 §5 Devices move: only fleets whose CPU architecture is compatible with the device
 * are offered, never its own fleet. Compatible is balena's rule, the model's
 * `isArchitectureCompatibleWith` that the server checks too (an aarch64 device may join
 * armv7hf and rpi fleets, an armv7hf device rpi fleets).
 */
export function moveCandidates(fleets: readonly MoveFleet[], device: { fleetId: number; architecture: string }): MoveFleet[] {
  return fleets
    .filter((f) => f.id !== device.fleetId && isArchitectureCompatibleWith(device.architecture, f.architecture))
    .sort((a, b) => a.app_name.localeCompare(b.app_name));
}

/** Spec 2 §5, §9: below OS 2.12.0 a move may lose persistent storage (warning). */
export function movePersistentStorageWarning(osVersion: string | null): boolean {
  const parts = versionParts(osVersion);
  if (!parts) return false;
  const [major, minor] = parts;
  return major < 2 || (major === 2 && minor < 12);
}
