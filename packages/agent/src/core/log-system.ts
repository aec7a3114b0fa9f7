import type { DeviceLogInput } from '@flotilla/model';
import type { ApplyHooks, ApplyTarget, ContainerHost, ServiceCommand, ServiceProgress } from './containers.js';
import type { DeviceEvent } from './device.js';

/**
 * The agent's own messages in the device log (`isSystem: true`), worded as a balena
 * supervisor words them so the dashboard reads the same: what the agent downloads,
 * installs, starts, kills and restarts, services that exit on their own, configuration
 * changes, reboots. They come from three places: the device's events (`systemLinesFor`),
 * the container host's operations (`LoggedContainerHost`), and the engine's container
 * events (`host/container-logs.ts`).
 */

export type SystemSink = (message: string, isStdErr?: boolean) => void;

export const systemMessage = {
  agentStarting: () => 'Agent starting',
  downloadingImage: (image: string) => `Downloading image '${image}'`,
  downloadedImage: (image: string) => `Downloaded image '${image}'`,
  installingService: (service: string, image: string) => `Installing service '${service} ${image}'`,
  startedService: (service: string, image?: string) => `Started service '${image ? `${service} ${image}` : service}'`,
  killedService: (service: string) => `Killed service '${service}'`,
  serviceExited: (service: string, exitCode?: number) => `Service exited '${service}'${exitCode ? ` with code ${exitCode}` : ''}`,
  restartingService: (service: string) => `Restarting service '${service}'`,
  restartedService: (service: string) => `Restarted service '${service}'`,
  stoppingService: (service: string) => `Stopping service '${service}'`,
  stoppedService: (service: string) => `Stopped service '${service}'`,
  startingService: (service: string) => `Starting service '${service}'`,
  restartingAll: () => 'Restarting all services',
  restartedAll: () => 'Restarted all services',
  purgingData: () => 'Purging data',
  purgedData: () => 'Purged data',
  removingServices: () => 'Removing all services: the target state has no release',
  updateLocked: () => 'Updates are locked: the update will be applied once the lock is released',
  updateFailed: (error: string) => `Failed to apply the release: ${error}`,
  appliedConfig: (changed: Record<string, string>) => `Applied configuration change ${JSON.stringify(changed)}`,
  configHookFailed: (error: string) => `Failed to apply the host configuration: ${error}`,
  appliedHostConfig: (names: string[]) => `Applied host configuration ${names.join(', ')}`,
  rebootWaitsForLock: (names: string[]) => `Reboot required to apply ${names.join(', ')}: waiting for the update lock`,
  rebootingForConfig: (names: string[]) => `Rebooting to apply ${names.join(', ')}`,
  rebootRefused: (names: string[], reason: string) => `Reboot required to apply ${names.join(', ')}, not done: ${reason}`,
  localMode: (on: boolean) => (on ? "Local mode enabled: the cloud's release is not applied" : "Local mode disabled: applying the cloud's release"),
  rebooting: () => 'Rebooting',
  shuttingDown: () => 'Shutting down',
} as const;

/** The system lines a device event means (the rest of the events are not logged). */
export function systemLinesFor(event: DeviceEvent): { message: string; isStdErr?: boolean }[] {
  switch (event.type) {
    case 'action':
      if (event.status !== 200) return [];
      if (event.action === 'reboot') return [{ message: systemMessage.rebooting() }];
      if (event.action === 'shutdown') return [{ message: systemMessage.shuttingDown() }];
      return [];
    case 'config':
      return [{ message: systemMessage.appliedConfig(event.changed) }];
    case 'host-config':
      return [{ message: systemMessage.appliedHostConfig(event.changed) }];
    case 'host-config-failed':
      return [{ message: systemMessage.configHookFailed(event.error), isStdErr: true }];
    case 'config-reboot':
      if (event.state === 'waiting') return [{ message: systemMessage.rebootWaitsForLock(event.names) }];
      if (event.state === 'rebooting') return [{ message: systemMessage.rebootingForConfig(event.names) }];
      return [{ message: systemMessage.rebootRefused(event.names, event.reason ?? ''), isStdErr: true }];
    case 'local-mode':
      return [{ message: systemMessage.localMode(event.on) }];
    default:
      return [];
  }
}

/** The keys whose value changed (a removed key maps to ''). */
export function changedConfig(prev: Record<string, string>, next: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(next)) if (prev[k] !== v) out[k] = v;
  for (const k of Object.keys(prev)) if (!(k in next)) out[k] = '';
  return out;
}

export function systemLine(message: string, timestamp: number, isStdErr = false): DeviceLogInput {
  return isStdErr ? { message, timestamp, isSystem: true, isStdErr: true } : { message, timestamp, isSystem: true };
}

/**
 * A `ContainerHost` that tells the log what it does: per service, the image download and
 * the install/start seen through the apply's progress; service commands, restarts, purge;
 * a deferred or failed apply. `busy()` is true while an operation runs (and shortly after),
 * so a container that dies meanwhile was killed by the agent, not exited on its own.
 */
export class LoggedContainerHost implements ContainerHost {
  private running = 0;
  private lastEnd = -Infinity;

  constructor(
    private readonly inner: ContainerHost,
    private readonly system: SystemSink,
    private readonly now: () => number = Date.now,
    private readonly settleMs = 3_000,
  ) {}

  /** True while the agent acts on containers, and for `settleMs` after (engine events lag). */
  busy(): boolean {
    return this.running > 0 || this.now() - this.lastEnd < this.settleMs;
  }

  private async op<T>(run: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await run();
    } finally {
      this.running--;
      this.lastEnd = this.now();
    }
  }

  apply(target: ApplyTarget, hooks: ApplyHooks): Promise<'done' | 'locked'> {
    const images = new Map(target.release.services.map((s) => [s.name, s.image]));
    const seen = new Map<string, ServiceProgress['status']>();
    const onProgress = (services: Record<string, ServiceProgress>) => {
      for (const [name, p] of Object.entries(services)) {
        const before = seen.get(name);
        if (before === p.status) continue;
        seen.set(name, p.status);
        const image = images.get(name) ?? '';
        if (p.status === 'Downloading') this.system(systemMessage.downloadingImage(image));
        else if (p.status === 'Downloaded' && before === 'Downloading') this.system(systemMessage.downloadedImage(image));
        else if (p.status === 'Installing') {
          if (before === 'Downloading') this.system(systemMessage.downloadedImage(image));
          this.system(systemMessage.installingService(name, image));
        } else if (p.status === 'Running' && before === 'Installing') this.system(systemMessage.startedService(name, image));
      }
      hooks.onProgress(services);
    };
    return this.op(async () => {
      try {
        const result = await this.inner.apply(target, { ...hooks, onProgress });
        if (result === 'locked') this.system(systemMessage.updateLocked());
        return result;
      } catch (err) {
        if (!hooks.cancelled?.()) this.system(systemMessage.updateFailed(err instanceof Error ? err.message : String(err)), true);
        throw err;
      }
    });
  }

  status() {
    return this.inner.status();
  }

  serviceCommand(command: ServiceCommand, service: string): Promise<boolean> {
    return this.op(async () => {
      const [before, after] =
        command === 'restart'
          ? [systemMessage.restartingService, systemMessage.restartedService]
          : command === 'stop'
            ? [systemMessage.stoppingService, systemMessage.stoppedService]
            : [systemMessage.startingService, (s: string) => systemMessage.startedService(s)];
      this.system(before(service));
      const found = await this.inner.serviceCommand(command, service);
      if (found) this.system(after(service));
      return found;
    });
  }

  restartAll(): Promise<void> {
    return this.op(async () => {
      this.system(systemMessage.restartingAll());
      await this.inner.restartAll();
      this.system(systemMessage.restartedAll());
    });
  }

  purge(): Promise<void> {
    return this.op(async () => {
      this.system(systemMessage.purgingData());
      await this.inner.purge();
      this.system(systemMessage.purgedData());
    });
  }

  clear(): Promise<void> {
    return this.op(async () => {
      this.system(systemMessage.removingServices());
      await this.inner.clear();
    });
  }
}
