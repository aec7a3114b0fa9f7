import type { Scheduler } from '../core/scheduler.js';
import { decideSelfUpdate, type FailedBuild } from '../core/self-update.js';
import type { AgentBuild } from '../core/target-state.js';

/** What a simulated agent update acts on: the device's reported version and notices. */
export interface SimulatedAgentHost {
  version(): string;
  notice(progress: number | null, state: string | null): void;
  setVersion(version: string): void;
  log(message: string): void;
}

/**
 * A simulated device's agent self-update (issue 17 item 4), mimicking `flotilla-agent run`'s:
 * when the target names a newer agent build it reports the download and the restart as
 * provisioning progress, then reports the new supervisor version, or, with `fail` (the
 * simulator's --fail-agent-update), the failed start and its old version, and does not try
 * that build again. Nothing is downloaded.
 */
export function simulatedAgentUpdate(scheduler: Scheduler, host: SimulatedAgentHost, durationMs: () => number, fail: boolean): (build: AgentBuild | null | undefined) => void {
  let busy = false;
  let failed: FailedBuild | null = null;
  return (build) => {
    const decision = decideSelfUpdate(host.version(), build, failed);
    if (decision.kind !== 'install' || busy) return;
    busy = true;
    const target = decision.build;
    const total = durationMs();
    host.log(`agent ${target.version} offered: updating (simulated)`);
    host.notice(10, `Downloading agent ${target.version}`);
    scheduler.after(total * 0.5, () => host.notice(50, `Restarting into agent ${target.version}`));
    scheduler.after(total, () => {
      busy = false;
      if (fail) {
        const reason = 'it exited during its start (simulated)';
        failed = { version: target.version, sha256: target.sha256, reason, at: Date.now() };
        host.log(`agent ${target.version} failed to start (simulated): back to ${host.version()}`);
        host.notice(null, `Agent update to ${target.version} failed: ${reason}; running agent ${host.version()}`);
        return;
      }
      host.log(`agent ${target.version} running (simulated)`);
      host.setVersion(target.version);
      host.notice(null, null);
    });
  };
}
