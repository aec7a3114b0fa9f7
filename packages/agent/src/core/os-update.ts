import type { OsUpdateParams } from '@flotilla/model';

/**
 * The host side of a host OS update (issue 17): `flotilla-agent run` installs with the
 * operator's hook (host/os-update-hook.ts), the simulator mimics it. The device loop
 * (core/device.ts) answers the `os-update` action, reports progress and reboots.
 */
export interface OsUpdateHost {
  /** Installs `params`; `progress` for each step; resolves with the OS version to report after the reboot. */
  install(params: OsUpdateParams, currentOsVersion: string, progress: (percent: number, state: string) => void, text?: (line: string) => void): Promise<string>;
  /** The install succeeded: keep the new version for the boot after the reboot (run: config.json). */
  installed?(osVersion: string): Promise<void> | void;
}

/** Why a device without a host refuses an OS update (the server answers 'Cannot start the update process: …' with it). */
export const NO_OS_UPDATE_HOOK = 'this device cannot update its host OS: its agent runs without an OS update hook (--os-update-hook or FLOTILLA_OS_UPDATE_HOOK)';
export const OS_UPDATE_UNDER_WAY = 'a host OS update is already under way on this device';

/** What the device reports of its OS update: a step and a percentage, or both cleared (null). */
export interface HostUpdateFacts {
  progress: number | null;
  state: string | null;
}
