import { majorVersion, terminalTarget, type TerminalTarget } from '@flotilla/model';

/**
 * When the terminal and each of its targets can be used (spec 2 §5 Terminal, §6
 * resin.device.ssh / ssh-host). Pure: unit-tested beside this file. The server decides again
 * on every session (the permission, the device's organization, the agent's host-shell switch);
 * these rules only keep the controls honest.
 */

/** Keys of the terminal.* bundle saying why something cannot be opened. */
export type TerminalUnavailableReason =
  | 'offline'
  | 'no_permission'
  | 'no_targets'
  | 'host_permission'
  | 'host_os_unsupported'
  | 'service_permission'
  | 'local_mode'
  | 'container_not_running';

export interface TerminalFacts {
  isOnline: boolean;
  isLocalMode: boolean;
  osVersion: string | null;
  services: { name: string; status: string }[];
  canSsh: boolean;
  canSshHost: boolean;
}

export interface TerminalTargetOption {
  target: TerminalTarget;
  /** The service's name, or null for the host OS. */
  service: string | null;
  /** The container's status, for a service. */
  status?: string;
  disabledReason?: TerminalUnavailableReason;
}

/** Spec 2 §4 Container status: a shell opens in a running or idle container only. */
export function containerAcceptsShell(status: string | null | undefined): boolean {
  const s = (status ?? '').toLowerCase();
  return s === 'running' || s === 'idle';
}

/**
 * Spec 2 §5: host OS access needs a supporting OS version. balenaOS / resinOS 1.x had no host
 * shell through the cloud; an unknown OS (never reported) is not offered either. Any other OS
 * (a Linux host running flotilla-agent) is supported — the agent's --allow-host-shell decides.
 */
export function hostOsSupportsShell(osVersion: string | null | undefined): boolean {
  const v = (osVersion ?? '').trim();
  if (v === '') return false;
  const balena = /^(?:balena\s*os|resin\s*os)\s+v?(\S+)/i.exec(v);
  if (balena) return (majorVersion(balena[1]) ?? 0) >= 2;
  return true;
}

/** The target picker's options: the host OS first, then each service, each with why it is disabled. */
export function terminalTargetOptions(facts: TerminalFacts): TerminalTargetOption[] {
  const host: TerminalTargetOption = { target: terminalTarget(null), service: null };
  if (!facts.canSshHost) host.disabledReason = 'host_permission';
  else if (!hostOsSupportsShell(facts.osVersion)) host.disabledReason = 'host_os_unsupported';
  const services = [...facts.services]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((s): TerminalTargetOption => {
      const option: TerminalTargetOption = { target: terminalTarget(s.name), service: s.name, status: s.status };
      if (!facts.canSsh) option.disabledReason = 'service_permission';
      else if (facts.isLocalMode) option.disabledReason = 'local_mode';
      else if (!containerAcceptsShell(s.status)) option.disabledReason = 'container_not_running';
      return option;
    });
  return [host, ...services];
}

/**
 * Why the terminal as a whole cannot open a new session, or undefined when it can. An offline
 * device keeps its open sessions (they reconnect or fail on their own) but opens no new one.
 */
export function terminalUnavailableReason(facts: TerminalFacts, openSessions: number): TerminalUnavailableReason | undefined {
  if (!facts.isOnline) return openSessions > 0 ? undefined : 'offline';
  if (!facts.canSsh && !facts.canSshHost) return 'no_permission';
  if (terminalTargetOptions(facts).every((o) => o.disabledReason !== undefined)) return 'no_targets';
  return undefined;
}

/** Whether a new session may start now (the device must be online even with sessions open). */
export function canStartSession(facts: TerminalFacts, option: TerminalTargetOption | undefined): boolean {
  return facts.isOnline && option !== undefined && option.disabledReason === undefined;
}

/** The target a picker starts on: the first usable service, else the host, else nothing. */
export function defaultTarget(options: TerminalTargetOption[]): TerminalTarget | undefined {
  return (options.find((o) => o.service !== null && !o.disabledReason) ?? options.find((o) => !o.disabledReason))?.target;
}
