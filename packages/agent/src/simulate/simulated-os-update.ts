import type { Scheduler } from '../core/scheduler.js';
import type { OsUpdateHost } from '../core/os-update.js';

/** The steps a simulated host OS update reports, at their share of its duration. */
export const SIMULATED_OS_UPDATE_STEPS: readonly { at: number; progress: number; state: string }[] = [
  { at: 0, progress: 0, state: 'Downloading the host OS image' },
  { at: 0.25, progress: 25, state: 'Downloading the host OS image' },
  { at: 0.5, progress: 50, state: 'Downloading the host OS image' },
  { at: 0.7, progress: 70, state: 'Writing the new host OS to the inactive partition' },
  { at: 0.9, progress: 90, state: 'Switching the boot partition' },
];

/**
 * A simulated device's host OS update (issue 17): the steps above over `durationMs()`, then the
 * device reboots (the device loop's simulated reboot) and reports `balenaOS <target version>`.
 */
export function simulatedOsUpdate(scheduler: Scheduler, durationMs: () => number): OsUpdateHost {
  return {
    install(params, _current, progress) {
      const total = durationMs();
      return new Promise((resolve) => {
        for (const step of SIMULATED_OS_UPDATE_STEPS) scheduler.after(total * step.at, () => progress(step.progress, step.state));
        scheduler.after(total, () => resolve(`balenaOS ${params.version}`));
      });
    },
  };
}
