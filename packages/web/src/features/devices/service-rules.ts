import { majorVersion } from '@flotilla/model';

/**
 * The services card's rules (spec 2 §4 "Container status", §5 Devices container controls,
 * §9 supervisor 7). Pure: unit-tested beside this file.
 */

export type ContainerTone = 'good' | 'bad' | 'progress';

/**
 * Spec 2 §4: running or idle count as good, stopped is bad, other states are in progress.
 * Exited and dead containers are stopped ones too (§5 treats exited like stopped).
 */
export function containerTone(status: string | null | undefined): ContainerTone {
  const s = (status ?? '').toLowerCase();
  if (s === 'running' || s === 'idle') return 'good';
  if (s === 'stopped' || s === 'exited' || s === 'dead') return 'bad';
  return 'progress';
}

/** Spec 2 §4: downloading and updating show a progress percentage. */
export function showsDownloadProgress(status: string | null | undefined): boolean {
  const s = (status ?? '').toLowerCase();
  return s === 'downloading' || s === 'updating';
}

/** Spec 2 §5, §9: container controls show only with supervisor 7 or newer, or more than one service. */
export const CONTAINER_CONTROLS_MIN_SUPERVISOR = 7;

export function containerControlsShown(supervisorVersion: string | null | undefined, serviceCount: number): boolean {
  return (majorVersion(supervisorVersion) ?? 0) >= CONTAINER_CONTROLS_MIN_SUPERVISOR || serviceCount > 1;
}

export const SERVICE_ACTIONS = ['start', 'stop', 'restart'] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/** Message keys (devices.* bundle) of a disabled service control. */
export type ServiceDisabledReason = 'permission_denied' | 'ongoing_action' | 'device_must_be_online' | 'service_already_running' | 'service_not_running';

/**
 * Spec 2 §5: disabled without update permission, while an action is in progress ('There is
 * an ongoing action, please wait'), on an offline device (§4), or by state: start if
 * running, stop if exited or stopped, restart if exited.
 */
export function serviceActionDisabledReason(
  action: ServiceAction,
  facts: { allowed: boolean; busy: boolean; isOnline: boolean; status: string | null | undefined },
): ServiceDisabledReason | undefined {
  if (!facts.allowed) return 'permission_denied';
  if (facts.busy) return 'ongoing_action';
  if (!facts.isOnline) return 'device_must_be_online';
  const s = (facts.status ?? '').toLowerCase();
  if (action === 'start' && s === 'running') return 'service_already_running';
  if (action === 'stop' && (s === 'exited' || s === 'stopped')) return 'service_not_running';
  if (action === 'restart' && s === 'exited') return 'service_not_running';
  return undefined;
}
