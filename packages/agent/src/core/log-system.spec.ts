import { describe, expect, it } from 'vitest';
import type { ApplyHooks, ApplyTarget, ContainerHost, ServiceProgress } from './containers.js';
import { LoggedContainerHost, changedConfig, systemLinesFor } from './log-system.js';

const target: ApplyTarget = {
  uuid: 'u',
  appId: 1,
  appUuid: 'a',
  appName: 'app',
  deviceType: 'raspberrypi3',
  release: { commit: 'c', id: 1, services: [{ name: 'main', id: 11, imageId: 21, image: 'reg/main@sha256:1' }, { name: 'db', id: 12, imageId: 22, image: 'reg/db@sha256:2' }] },
};

/** A host whose apply reports the given progress steps (what EngineHost reports), then `result`. */
function fakeHost(steps: Record<string, ServiceProgress>[], result: 'done' | 'locked' | Error = 'done'): ContainerHost {
  return {
    async apply(_t, hooks) {
      for (const s of steps) hooks.onProgress(s);
      if (result instanceof Error) throw result;
      return result;
    },
    status: async () => ({}),
    serviceCommand: async (_c, service) => service === 'main',
    restartAll: async () => undefined,
    purge: async () => undefined,
    clear: async () => undefined,
  };
}
const hooks = (progress: Record<string, ServiceProgress>[] = []): ApplyHooks => ({ isLocked: () => false, onProgress: (p) => progress.push(p) });

describe('LoggedContainerHost', () => {
  it('turns an apply into balena-style system lines per service and still passes the progress on', async () => {
    const lines: string[] = [];
    const seen: Record<string, ServiceProgress>[] = [];
    const d = (status: ServiceProgress['status'], progress: number | null = null): ServiceProgress => ({ status, progress });
    const host = new LoggedContainerHost(
      fakeHost([
        { main: d('Downloading', 0), db: d('Downloaded') },
        { main: d('Downloading', 50), db: d('Downloaded') },
        { main: d('Downloaded'), db: d('Running') },
        { main: d('Installing'), db: d('Running') },
        { main: d('Running'), db: d('Running') },
      ]),
      (m) => lines.push(m),
    );
    expect(await host.apply(target, hooks(seen))).toBe('done');
    expect(lines).toEqual([
      "Downloading image 'reg/main@sha256:1'",
      "Downloaded image 'reg/main@sha256:1'",
      "Installing service 'main reg/main@sha256:1'",
      "Started service 'main reg/main@sha256:1'",
    ]);
    expect(seen).toHaveLength(5);
  });

  it('says when the update lock defers an apply, and why an apply failed (stderr)', async () => {
    const lines: [string, boolean | undefined][] = [];
    const locked = new LoggedContainerHost(fakeHost([], 'locked'), (m, e) => lines.push([m, e]));
    await locked.apply(target, hooks());
    const failing = new LoggedContainerHost(fakeHost([], new Error('pull of x failed: 404')), (m, e) => lines.push([m, e]));
    await expect(failing.apply(target, hooks())).rejects.toThrow('404');
    expect(lines).toEqual([
      ['Updates are locked: the update will be applied once the lock is released', undefined],
      ['Failed to apply the release: pull of x failed: 404', true],
    ]);
  });

  it('logs service commands, restart-all and purge, and is busy while they run and shortly after', async () => {
    let now = 1_000;
    const lines: string[] = [];
    const host = new LoggedContainerHost(fakeHost([]), (m) => lines.push(m), () => now, 3_000);
    expect(host.busy()).toBe(false);
    now = 10_000;
    expect(await host.serviceCommand('restart', 'main')).toBe(true);
    expect(await host.serviceCommand('stop', 'nope')).toBe(false);
    await host.restartAll();
    await host.purge();
    expect(lines).toEqual([
      "Restarting service 'main'",
      "Restarted service 'main'",
      "Stopping service 'nope'",
      'Restarting all services',
      'Restarted all services',
      'Purging data',
      'Purged data',
    ]);
    expect(host.busy()).toBe(true);
    now += 3_000;
    expect(host.busy()).toBe(false);
  });
});

describe('system lines from device events', () => {
  it('reboot, shutdown and configuration changes', () => {
    expect(systemLinesFor({ type: 'action', action: 'reboot', status: 200 })).toEqual([{ message: 'Rebooting' }]);
    expect(systemLinesFor({ type: 'action', action: 'shutdown', status: 200 })).toEqual([{ message: 'Shutting down' }]);
    expect(systemLinesFor({ type: 'action', action: 'reboot', status: 423 })).toEqual([]);
    expect(systemLinesFor({ type: 'config', changed: { BALENA_SUPERVISOR_POLL_INTERVAL: '5000' } })).toEqual([
      { message: 'Applied configuration change {"BALENA_SUPERVISOR_POLL_INTERVAL":"5000"}' },
    ]);
    expect(systemLinesFor({ type: 'poll', status: 304 })).toEqual([]);
    expect(changedConfig({ A: '1', B: '2' }, { A: '1', B: '3', C: '4' })).toEqual({ B: '3', C: '4' });
    expect(changedConfig({ A: '1' }, {})).toEqual({ A: '' });
  });
});
