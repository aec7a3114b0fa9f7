import { HEARTBEAT_GRACE } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import type { ApplyHooks, ApplyTarget, ContainerHost, ServiceCommand } from './containers.js';
import { Device, type DeviceEvent, type DeviceOptions } from './device.js';
import type { DeviceDiagnostics, DeviceRuntimeFacts } from './health-checks.js';
import type { ServiceStatus } from './report.js';
import { Scheduler } from './scheduler.js';
import type { DeviceApi, RegisterInput, StatePoll } from '../net/device-api.js';
import { HttpError } from '../net/http-client.js';

const uuid = 'b'.repeat(32);
const target = (commit: string | null) => ({
  [uuid]: {
    name: 'dev',
    config: {},
    apps: { 'app-uuid': { id: 3, name: 'Fleet', class: 'fleet', releases: commit ? { [commit]: { id: 1, services: { main: { id: 1, image_id: 9, image: `img-${commit}` } } } } : {} } },
  },
});

/** A scripted server: records calls, answers polls from a queue. */
function fakeApi() {
  const calls = { register: [] as RegisterInput[], polls: [] as (string | null)[], reports: [] as Record<string, unknown>[] };
  const polls: (StatePoll | Error)[] = [];
  const api = {
    async register(input: RegisterInput) {
      calls.register.push(input);
      return { id: 77, exchanged: false };
    },
    async pollState(_uuid: string, _key: string, etag: string | null) {
      calls.polls.push(etag);
      const next = polls.shift() ?? { status: 304 as const };
      if (next instanceof Error) throw next;
      return next;
    },
    async reportState(_uuid: string, _key: string, fields: Record<string, unknown>) {
      calls.reports.push(fields);
    },
    linkUrl: () => 'ws://unused',
  };
  return { api: api as unknown as DeviceApi, calls, polls };
}

function setup(locked: boolean | (() => boolean) = false, random: () => number = () => 0, extra: Partial<DeviceOptions> = {}) {
  let now = 1_000_000;
  const scheduler = new Scheduler(() => now, false);
  const { api, calls, polls } = fakeApi();
  const events: DeviceEvent[] = [];
  const device = new Device(
    { api, scheduler, random, log: () => {}, onEvent: (_d, e) => events.push(e) },
    {
      uuid,
      deviceApiKey: 'device-key-0123456789',
      provisioningKey: 'prov',
      applicationId: 3,
      deviceType: 'raspberrypi3',
      pollIntervalMs: 60_000,
      metricsIntervalMs: 60_000,
      reportDebounceMs: 0,
      downloadMs: () => 10_000,
      applyMs: () => 2_000,
      osVersion: 'os',
      osVariant: 'prod',
      supervisorVersion: '14.0.0',
      ipAddress: '10.0.0.1',
      macAddress: 'AA',
      sampleMetrics: () => null,
      isLocked: typeof locked === 'function' ? locked : () => locked,
      rebootOfflineMs: () => 5_000,
      link: false,
      ...extra,
    },
  );
  /** Advances the fake clock to `to`, running due tasks and letting their promises settle. */
  const advance = async (ms: number) => {
    const end = now + ms;
    for (;;) {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      scheduler.runDue(now);
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      const nextAt = (scheduler as unknown as { heap: { at: number; cancelled: boolean }[] }).heap.filter((t) => !t.cancelled).map((t) => t.at).sort((a, b) => a - b)[0];
      if (nextAt === undefined || nextAt > end) break;
      now = Math.max(now, nextAt);
    }
    now = end;
  };
  return { device, calls, polls, events, advance };
}

describe('the device protocol loop', () => {
  it('registers once, drops the provisioning key, then polls with the ETag it got', async () => {
    const { device, calls, polls, advance } = setup();
    polls.push({ status: 200, etag: '"e1"', body: target(null) });
    device.start();
    await advance(0);
    expect(calls.register).toHaveLength(1);
    expect(calls.register[0]).toMatchObject({ applicationId: 3, uuid, provisioningKey: 'prov', deviceApiKey: 'device-key-0123456789' });
    expect(device.deviceId).toBe(77);
    expect(calls.polls).toEqual([null]);
    await advance(60_000);
    expect(calls.polls).toEqual([null, '"e1"']);
    // The first report went at once, without an app (no release yet).
    expect(calls.reports[0]).toMatchObject({ status: 'Idle', update_status: 'done', supervisor_version: '14.0.0' });
    device.stop();
  });

  it("polls again within the server's heartbeat grace even at the top of its jitter", async () => {
    const { device, calls, advance } = setup(false, () => 0.999999);
    device.start();
    await advance(0);
    expect(calls.polls).toHaveLength(1);
    // Jittered, so not before the interval is over...
    await advance(60_000 - 1);
    expect(calls.polls).toHaveLength(1);
    // ...but before the server would call the device timed out (interval × (1 + grace)).
    await advance(Math.floor(60_000 * HEARTBEAT_GRACE));
    expect(calls.polls).toHaveLength(2);
    device.stop();
  });

  it('reports downloading with progress, applying changes, then done with the new release running', async () => {
    const { device, calls, polls, advance } = setup();
    polls.push({ status: 200, etag: '"e1"', body: target('c1') });
    device.start();
    await advance(13_000);
    // The boot report (before the target arrived) says done; then the update's phases in order.
    const statuses = calls.reports.map((r) => r.update_status).filter(Boolean);
    expect(statuses).toEqual(['done', 'downloading', 'applying changes', 'done']);
    const progress = calls.reports.map((r) => r.download_progress).filter((p): p is number => typeof p === 'number');
    expect(progress.length).toBeGreaterThan(3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    const last = calls.reports.at(-1)!;
    expect(last.apps).toEqual({ 'app-uuid': { release_uuid: 'c1', releases: { c1: { update_status: 'done', services: { main: { image: 'img-c1', status: 'Running', download_progress: null } } } } } });
    expect(device.running?.commit).toBe('c1');
    device.stop();
  });

  it('backs off 15 s after a failed poll, then returns to the interval', async () => {
    const { device, calls, polls, advance } = setup();
    polls.push(new HttpError(503, '', 'unavailable'), { status: 304 });
    device.start();
    await advance(0);
    expect(calls.polls).toHaveLength(1);
    await advance(14_999);
    expect(calls.polls).toHaveLength(1);
    await advance(1);
    expect(calls.polls).toHaveLength(2);
    await advance(59_999);
    expect(calls.polls).toHaveLength(2);
    await advance(1);
    expect(calls.polls).toHaveLength(3);
    device.stop();
  });

  it('polls at once on an update action, and refuses a reboot under the lock unless forced', async () => {
    const { device, calls, advance } = setup(true);
    device.start();
    await advance(0);
    expect(calls.polls).toHaveLength(1);
    expect(await device.handleAction({ type: 'action', id: '1', action: 'update', params: {} })).toEqual({ status: 200, body: { Data: 'OK', Error: null } });
    await advance(0);
    expect(calls.polls).toHaveLength(2);
    expect((await device.handleAction({ type: 'action', id: '2', action: 'reboot', params: {} })).status).toBe(423);
    expect((await device.handleAction({ type: 'action', id: '3', action: 'reboot', params: { force: true } })).status).toBe(200);
    device.stop();
  });

  it('polls within the spread the server gives when told the target changed, keeping a poll already due sooner', async () => {
    const { device, calls, advance } = setup(false, () => 0.5);
    device.start();
    await advance(0);
    expect(calls.polls).toHaveLength(1);
    device.targetChanged(10_000); // 100 ms + half of 10 s
    await advance(5_099);
    expect(calls.polls).toHaveLength(1);
    await advance(1);
    expect(calls.polls).toHaveLength(2);
    // The next regular poll is 67.5 s away (interval + jitter): a notice brings it forward…
    device.targetChanged(60_000);
    await advance(30_100);
    expect(calls.polls).toHaveLength(3);
    // …but never pushes a sooner one back.
    device.targetChanged(600_000);
    await advance(67_500);
    expect(calls.polls).toHaveLength(4);
    device.stop();
  });

  it('answers ping and its supervisor state (read-only, so not held by the update lock)', async () => {
    const { device, advance } = setup(true);
    device.start();
    await advance(0);
    expect(await device.handleAction({ type: 'action', id: '1', action: 'ping', params: {} })).toEqual({ status: 200, body: 'OK' });
    const state = await device.handleAction({ type: 'action', id: '2', action: 'device', params: {} });
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ status: 'Idle', update_pending: false, update_failed: false });
    device.stop();
  });

  it("runs health checks and diagnose on its provider (even under the lock), with the last poll's time and the server's Date", async () => {
    const seen: DeviceRuntimeFacts[] = [];
    const diagnostics: DeviceDiagnostics = {
      checks: async (facts) => {
        seen.push(facts);
        return { checks: [{ name: 'c', success: true, status: 'fine' }], diagnose_version: '1.0.0' };
      },
      diagnose: async () => ({ stdout: 'facts', stderr: '' }),
    };
    const { device, polls, advance } = setup(true, () => 0, { diagnostics });
    polls.push({ status: 200, etag: '"e1"', body: target(null), date: 'Tue, 01 Jan 2030 00:00:00 GMT' });
    device.start();
    await advance(0);
    const checks = await device.handleAction({ type: 'action', id: '1', action: 'health-checks', params: {} });
    expect(checks).toEqual({ status: 200, body: { Data: { checks: [{ name: 'c', success: true, status: 'fine' }], diagnose_version: '1.0.0' }, Error: null } });
    expect(seen[0]).toMatchObject({ lastPollServerDate: Date.parse('2030-01-01T00:00:00Z'), pollIntervalMs: 60_000, linkUp: false });
    expect(seen[0]!.lastPollOkAt).toEqual(expect.any(Number));
    expect(await device.handleAction({ type: 'action', id: '2', action: 'diagnose', params: {} })).toEqual({ status: 200, body: { Data: { stdout: 'facts', stderr: '' }, Error: null } });
    const { device: bare } = setup();
    expect((await bare.handleAction({ type: 'action', id: '3', action: 'diagnose', params: {} })).status).toBe(501);
    device.stop();
  });

  it('goes offline on reboot and comes back with a fresh poll and a full report', async () => {
    const { device, calls, events, polls, advance } = setup();
    polls.push({ status: 200, etag: '"e1"', body: target(null) });
    device.start();
    await advance(1_000);
    const reportsBefore = calls.reports.length;
    device.power('reboot');
    expect(device.phase).toBe('offline');
    await advance(4_999);
    expect(device.phase).toBe('offline');
    const pollsBefore = calls.polls.length;
    await advance(1);
    expect(device.phase).toBe('online');
    expect(calls.polls.slice(pollsBefore)).toEqual([null]);
    expect(calls.reports.length).toBe(reportsBefore + 1);
    expect(calls.reports.at(-1)).toHaveProperty('os_version');
    expect(events.filter((e) => e.type === 'power')).toEqual([{ type: 'power', kind: 'reboot' }, { type: 'power', kind: 'back' }]);
    device.stop();
  });

  it('stops a service on stop-service and 404s an unknown one', async () => {
    const { device, calls, polls, advance } = setup();
    polls.push({ status: 200, etag: '"e1"', body: target('c1') });
    device.start();
    await advance(13_000);
    expect((await device.handleAction({ type: 'action', id: '1', action: 'stop-service', params: { appId: 3, serviceName: 'nope' } })).status).toBe(404);
    expect((await device.handleAction({ type: 'action', id: '2', action: 'stop-service', params: { appId: 3, data: { imageId: 9 } } })).status).toBe(200);
    await advance(0);
    expect(JSON.stringify(calls.reports.at(-1)!.apps)).toContain('"status":"Stopped"');
    device.stop();
  });
});

/** A scripted container host: records what the device asked, applies instantly (or answers locked). */
function fakeHost() {
  const calls: string[] = [];
  const state: { status: Record<string, ServiceStatus>; applied: ApplyTarget[]; hold?: Promise<void> } = { status: {}, applied: [] };
  const host: ContainerHost = {
    async apply(target: ApplyTarget, hooks: ApplyHooks) {
      calls.push(`apply ${target.release.commit}`);
      hooks.onProgress({ main: { status: 'Downloading', progress: 40 } });
      await state.hold;
      if (hooks.isLocked()) return 'locked';
      hooks.onProgress({ main: { status: 'Installing', progress: null } });
      state.applied.push(target);
      state.status = Object.fromEntries(target.release.services.map((s) => [s.name, 'Running' as const]));
      return 'done';
    },
    async status() {
      return state.status;
    },
    async serviceCommand(command: ServiceCommand, service: string) {
      calls.push(`${command} ${service}`);
      if (!(service in state.status)) return false;
      state.status = { ...state.status, [service]: command === 'stop' ? 'Exited' : 'Running' };
      return true;
    },
    async restartAll() {
      calls.push('restart all');
    },
    async purge() {
      calls.push('purge');
      state.status = {};
    },
    async clear() {
      calls.push('clear');
      state.status = {};
    },
  };
  return { host, calls, state };
}

describe('the device protocol loop with a container host (run --engine)', () => {
  it('applies the target through the host, reports per-service download progress, then the release running', async () => {
    const { host, calls: hostCalls, state } = fakeHost();
    const { device, calls, polls, advance } = setup(false, () => 0, { containers: host });
    polls.push({ status: 200, etag: '"e1"', body: target('c1') });
    let pulled = () => {};
    state.hold = new Promise((resolve) => (pulled = resolve));
    device.start();
    await advance(1_000);
    expect(hostCalls).toEqual(['apply c1']);
    pulled();
    await advance(1_000);
    expect(state.applied[0]).toMatchObject({ uuid, appId: 3, appUuid: 'app-uuid', appName: 'Fleet', deviceType: 'raspberrypi3' });
    const downloading = calls.reports.find((r) => r.update_status === 'downloading');
    expect(JSON.stringify(downloading?.apps)).toContain('"status":"Downloading","download_progress":40');
    expect(JSON.stringify(calls.reports)).toContain('"release_uuid":"c1"');
    expect(JSON.stringify(calls.reports)).not.toContain('"release_uuid":"c2"');
    expect(device.running?.commit).toBe('c1');
    device.stop();
  });

  it('removes the services when the target has no release (release deleted, fleet without one), under the update lock', async () => {
    let locked = false;
    const { host, calls: hostCalls } = fakeHost();
    const { device, calls, polls, advance } = setup(() => locked, () => 0, { containers: host, lockRetryMs: 1_000 });
    polls.push({ status: 200, etag: '"e1"', body: target('c1') });
    device.start();
    await advance(1_000);
    expect(device.running?.commit).toBe('c1');
    locked = true;
    polls.push({ status: 200, etag: '"e2"', body: target(null) });
    device.pollNow();
    await advance(1_500);
    expect(hostCalls).toEqual(['apply c1']);
    locked = false;
    await advance(1_000);
    expect(hostCalls).toEqual(['apply c1', 'clear']);
    expect(device.running).toBeNull();
    expect(JSON.stringify(calls.reports.at(-1))).not.toContain('"status":"Running"');
    // A release again: applied as usual.
    polls.push({ status: 200, etag: '"e3"', body: target('c2') });
    device.pollNow();
    await advance(1_000);
    expect(hostCalls).toEqual(['apply c1', 'clear', 'apply c2']);
    expect(device.running?.commit).toBe('c2');
    device.stop();
  });

  it('a first target without a release clears what an earlier run left', async () => {
    const { host, calls: hostCalls } = fakeHost();
    const { device, polls, advance } = setup(false, () => 0, { containers: host });
    polls.push({ status: 200, etag: '"e1"', body: target(null) });
    device.start();
    await advance(1_000);
    expect(hostCalls).toEqual(['clear']);
    device.stop();
  });

  it('defers a release while the update lock is held, retries, applies once the lock goes; a forced update goes through the lock', async () => {
    let locked = true;
    const { host, calls: hostCalls } = fakeHost();
    const { device, events, polls, advance } = setup(() => locked, () => 0, { containers: host, lockRetryMs: 1_000 });
    polls.push({ status: 200, etag: '"e1"', body: target('c1') });
    device.start();
    await advance(2_500);
    expect(hostCalls).toEqual(['apply c1', 'apply c1', 'apply c1']);
    expect(events.filter((e) => e.type === 'update' && e.phase === 'locked')).toHaveLength(3);
    expect(device.running).toBeNull();
    locked = false;
    await advance(1_000);
    expect(device.running?.commit).toBe('c1');

    locked = true;
    polls.push({ status: 200, etag: '"e2"', body: target('c2') });
    device.pollNow();
    await advance(0);
    expect(device.running?.commit).toBe('c1');
    expect((await device.handleAction({ type: 'action', id: '1', action: 'update', params: { data: { force: true } } })).status).toBe(200);
    await advance(0);
    expect(device.running?.commit).toBe('c2');
    device.stop();
  });

  it('acts on real services: restart / stop with their reported status, 404 without a container, restart all, purge then re-apply', async () => {
    const { host, calls: hostCalls } = fakeHost();
    const { device, calls, polls, advance } = setup(false, () => 0, { containers: host });
    polls.push({ status: 200, etag: '"e1"', body: target('c1') });
    device.start();
    await advance(1_000);
    expect((await device.handleAction({ type: 'action', id: '1', action: 'stop-service', params: { serviceName: 'main' } })).status).toBe(200);
    await advance(0);
    expect(JSON.stringify(calls.reports.at(-1)!.apps)).toContain('"status":"Exited"');
    expect((await device.handleAction({ type: 'action', id: '2', action: 'restart-service', params: { data: { imageId: 9 } } })).status).toBe(200);
    expect((await device.handleAction({ type: 'action', id: '3', action: 'start-service', params: { serviceName: 'ghost' } })).status).toBe(404);
    expect((await device.handleAction({ type: 'action', id: '4', action: 'restart', params: {} })).status).toBe(200);
    expect((await device.handleAction({ type: 'action', id: '5', action: 'purge', params: {} })).status).toBe(200);
    await advance(0);
    expect(hostCalls).toEqual(['apply c1', 'stop main', 'restart main', 'restart all', 'purge', 'apply c1']);
    expect(device.running?.commit).toBe('c1');
    device.stop();
  });

  it('recreates a service whose container went away behind its back', async () => {
    const { host, calls: hostCalls, state } = fakeHost();
    const { device, polls, advance } = setup(false, () => 0, { containers: host, statusIntervalMs: 1_000 });
    polls.push({ status: 200, etag: '"e1"', body: target('c1') });
    device.start();
    await advance(500);
    expect(hostCalls).toEqual(['apply c1']);
    state.status = {};
    await advance(1_000);
    expect(hostCalls).toEqual(['apply c1', 'apply c1']);
    expect(device.serviceStatus).toEqual({ main: 'Running' });
    device.stop();
  });

  it('refuses reboot and shutdown with the reason it is given (a real host without --allow-power)', async () => {
    const refused = setup(false, () => 0, { powerRefusal: (kind) => `${kind} refused: no --allow-power` });
    refused.device.start();
    await refused.advance(0);
    expect(await refused.device.handleAction({ type: 'action', id: '1', action: 'shutdown', params: {} })).toEqual({
      status: 403,
      body: { Data: null, Error: 'shutdown refused: no --allow-power' },
    });
    expect(refused.device.phase).toBe('online');
    refused.device.stop();
  });
});

describe('configuration variables (issue 16)', () => {
  const targetWith = (config: Record<string, string>, commit = 'c1', env: Record<string, Record<string, string>> = {}) => ({
    [uuid]: {
      name: 'dev',
      config,
      apps: {
        'app-uuid': {
          id: 3,
          name: 'Fleet',
          class: 'fleet',
          releases: {
            [commit]: {
              id: 1,
              services: {
                main: { id: 1, image_id: 9, image: `img-${commit}`, environment: env.main ?? {} },
                worker: { id: 2, image_id: 10, image: `img-w-${commit}`, environment: env.worker ?? {} },
              },
            },
          },
        },
      },
    },
  });
  const reboot = new Set(['BALENA_HOST_CONFIG_gpu_mem']);

  it('local mode: the cloud release is no longer applied, polls and reports go on; switched off, the release is applied', async () => {
    const { host, calls: hostCalls } = fakeHost();
    const { device, calls, polls, events, advance } = setup(false, () => 0, { containers: host });
    polls.push({ status: 200, etag: '"e1"', body: targetWith({}, 'c1') });
    device.start();
    await advance(1_000);
    expect(hostCalls).toEqual(['apply c1']);
    polls.push({ status: 200, etag: '"e2"', body: targetWith({ RESIN_SUPERVISOR_LOCAL_MODE: '1' }, 'c2') });
    device.pollNow();
    await advance(1_000);
    expect(events).toContainEqual({ type: 'local-mode', on: true });
    expect(hostCalls).toEqual(['apply c1']);
    expect(device.running?.commit).toBe('c1');
    const pollsBefore = calls.polls.length;
    await advance(61_000);
    expect(calls.polls.length).toBeGreaterThan(pollsBefore);
    // Still reporting what runs: the release it had when local mode went on.
    expect(JSON.stringify(calls.reports)).toContain('"release_uuid":"c1"');
    expect(JSON.stringify(calls.reports)).not.toContain('"release_uuid":"c2"');
    polls.push({ status: 200, etag: '"e3"', body: targetWith({ RESIN_SUPERVISOR_LOCAL_MODE: '0' }, 'c2') });
    device.pollNow();
    await advance(1_000);
    expect(events).toContainEqual({ type: 'local-mode', on: false });
    expect(hostCalls).toEqual(['apply c1', 'apply c2']);
    expect(device.running?.commit).toBe('c2');
    device.stop();
  });

  it('records the applied environment and names the services whose environment changed', async () => {
    const { host, calls: hostCalls } = fakeHost();
    const { device, polls, events, advance } = setup(false, () => 0, { containers: host });
    polls.push({ status: 200, etag: '"e1"', body: targetWith({}, 'c1', { main: { A: '1' }, worker: { A: '1' } }) });
    device.start();
    await advance(1_000);
    expect(device.applied.environment).toEqual({ main: { A: '1' }, worker: { A: '1' } });
    polls.push({ status: 200, etag: '"e2"', body: targetWith({}, 'c1', { main: { A: '2' }, worker: { A: '1' } }) });
    device.pollNow();
    await advance(1_000);
    // The engine host is asked to apply the same release again; it replaces only what changed (planApply).
    expect(hostCalls).toEqual(['apply c1', 'apply c1']);
    expect(events).toContainEqual({ type: 'environment', changed: { main: ['A'] } });
    expect(device.applied.environment.main).toEqual({ A: '2' });
    device.stop();
  });

  it('gives the host config to the hook when it changes (not the agent own), reboots for a will_reboot one only once the update lock is gone', async () => {
    let locked = true;
    const docs: unknown[] = [];
    const saved: Record<string, string>[] = [];
    const { device, polls, events, advance } = setup(() => locked, () => 0, {
      lockRetryMs: 1_000,
      applyHostConfig: async (doc) => void docs.push(doc),
      onHostConfigApplied: (c) => void saved.push(c),
      rebootSchema: async () => reboot,
    });
    polls.push({ status: 200, etag: '"e1"', body: targetWith({ RESIN_SUPERVISOR_POLL_INTERVAL: '60000' }) });
    device.start();
    await advance(1_000);
    // Nothing for the host on the first boot: no hook run.
    expect(docs).toEqual([]);
    polls.push({ status: 200, etag: '"e2"', body: targetWith({ RESIN_SUPERVISOR_POLL_INTERVAL: '60000', BALENA_SUPERVISOR_DELTA: 'true' }) });
    device.pollNow();
    await advance(1_000);
    expect(docs).toEqual([{ version: 1, uuid, deviceType: 'raspberrypi3', config: { BALENA_SUPERVISOR_DELTA: 'true' }, changed: ['BALENA_SUPERVISOR_DELTA'], reboot: [] }]);
    expect(saved).toEqual([{ BALENA_SUPERVISOR_DELTA: 'true' }]);
    polls.push({ status: 200, etag: '"e3"', body: targetWith({ BALENA_SUPERVISOR_DELTA: 'true', BALENA_HOST_CONFIG_gpu_mem: '128' }) });
    device.pollNow();
    await advance(1_000);
    expect(docs.at(-1)).toMatchObject({ changed: ['BALENA_HOST_CONFIG_gpu_mem'], reboot: ['BALENA_HOST_CONFIG_gpu_mem'] });
    expect(events).toContainEqual({ type: 'config-reboot', names: ['BALENA_HOST_CONFIG_gpu_mem'], state: 'waiting' });
    await advance(10_000);
    expect(events.filter((e) => e.type === 'power')).toEqual([]);
    expect(device.phase).toBe('online');
    locked = false;
    await advance(1_000);
    expect(events).toContainEqual({ type: 'config-reboot', names: ['BALENA_HOST_CONFIG_gpu_mem'], state: 'rebooting' });
    expect(events).toContainEqual({ type: 'power', kind: 'reboot' });
    expect(device.applied.configReboots).toBe(1);
    await advance(6_000);
    expect(device.phase).toBe('online');
    // Back from the reboot with the same configuration: no second hook run, no second reboot.
    expect(docs).toHaveLength(2);
    expect(device.applied.configReboots).toBe(1);
    device.stop();
  });

  it('reboots under the lock when the lock is overridden; a refused reboot (no --allow-power) is only reported', async () => {
    const { device, polls, events, advance } = setup(true, () => 0, {
      applyHostConfig: async () => {},
      appliedHostConfig: {},
      rebootSchema: async () => reboot,
    });
    polls.push({ status: 200, etag: '"e1"', body: targetWith({ RESIN_SUPERVISOR_OVERRIDE_LOCK: '1', RESIN_HOST_CONFIG_gpu_mem: '64' }) });
    device.start();
    await advance(1_000);
    expect(events).toContainEqual({ type: 'config-reboot', names: ['RESIN_HOST_CONFIG_gpu_mem'], state: 'rebooting' });
    device.stop();

    const refused = setup(false, () => 0, {
      applyHostConfig: async () => {},
      appliedHostConfig: {},
      rebootSchema: async () => reboot,
      powerRefusal: () => 'started without --allow-power',
    });
    refused.polls.push({ status: 200, etag: '"e1"', body: targetWith({ BALENA_HOST_CONFIG_gpu_mem: '64' }) });
    refused.device.start();
    await refused.advance(1_000);
    expect(refused.events).toContainEqual({ type: 'config-reboot', names: ['BALENA_HOST_CONFIG_gpu_mem'], state: 'refused', reason: 'started without --allow-power' });
    expect(refused.events.filter((e) => e.type === 'power')).toEqual([]);
    refused.device.stop();
  });

  it('a failed hook is reported and retried on the next change only', async () => {
    let fail = true;
    let runs = 0;
    const { device, polls, events, advance } = setup(false, () => 0, {
      appliedHostConfig: {},
      applyHostConfig: async () => {
        runs++;
        if (fail) throw new Error('exit 3');
      },
    });
    polls.push({ status: 200, etag: '"e1"', body: targetWith({ BALENA_SUPERVISOR_DELTA: 'true' }) });
    device.start();
    await advance(1_000);
    expect(runs).toBe(1);
    expect(events).toContainEqual({ type: 'host-config-failed', error: 'exit 3' });
    // The same configuration again (another poll): not retried.
    polls.push({ status: 200, etag: '"e2"', body: targetWith({ BALENA_SUPERVISOR_DELTA: 'true', RESIN_SUPERVISOR_POLL_INTERVAL: '60000' }) });
    device.pollNow();
    await advance(1_000);
    expect(runs).toBe(1);
    fail = false;
    polls.push({ status: 200, etag: '"e3"', body: targetWith({ BALENA_SUPERVISOR_DELTA: 'false' }) });
    device.pollNow();
    await advance(1_000);
    expect(runs).toBe(2);
    expect(events).toContainEqual({ type: 'host-config', changed: ['BALENA_SUPERVISOR_DELTA'], config: { BALENA_SUPERVISOR_DELTA: 'false' } });
    device.stop();
  });
});

describe('host OS update (issue 17)', () => {
  const params = { targetVersion: '6.1.0+rev0.prod', version: '6.1.0+rev0', variant: 'prod', kind: 'balenahup', takeover: false, image: null };

  it('refuses without an OS update host, on a host that may not reboot, and a malformed request', async () => {
    const bare = setup();
    bare.device.start();
    await bare.advance(0);
    const none = await bare.device.handleAction({ type: 'action', id: '1', action: 'os-update', params });
    expect(none.status).toBe(501);
    expect((none.body as { Error: string }).Error).toMatch(/without an OS update hook/);
    expect((await bare.device.handleAction({ type: 'action', id: '2', action: 'os-update', params: { targetVersion: 1 } })).status).toBe(400);
    bare.device.stop();
    const host = { install: () => Promise.resolve('balenaOS 6.1.0') };
    const noPower = setup(false, () => 0, { osUpdate: host, powerRefusal: (kind) => `${kind} refused: no --allow-power` });
    noPower.device.start();
    await noPower.advance(0);
    const refused = await noPower.device.handleAction({ type: 'action', id: '3', action: 'os-update', params });
    expect(refused).toEqual({ status: 403, body: { Data: null, Error: 'this device cannot reboot into a new host OS (reboot refused: no --allow-power)' } });
    noPower.device.stop();
  });

  it('answers triggered, reports progress while the host installs, refuses a second one, reboots and reports the new version', async () => {
    let finish: (v: string) => void = () => {};
    let step: (p: number, s: string) => void = () => {};
    const installed: string[] = [];
    const host = {
      install: (_p: unknown, current: string, progress: (p: number, s: string) => void) => {
        expect(current).toBe('os');
        step = progress;
        return new Promise<string>((resolve) => (finish = resolve));
      },
      installed: (v: string) => void installed.push(v),
    };
    const { device, calls, events, advance } = setup(false, () => 0, { osUpdate: host });
    device.start();
    await advance(1_000);
    expect(await device.handleAction({ type: 'action', id: '1', action: 'os-update', params })).toEqual({ status: 200, body: { Data: { status: 'triggered' }, Error: null } });
    await advance(0);
    expect(calls.reports.at(-1)).toMatchObject({ status: 'Updating host OS', provisioning_progress: 0, provisioning_state: 'Starting the host OS update' });
    step(40, 'Downloading');
    await advance(0);
    expect(calls.reports.at(-1)).toMatchObject({ provisioning_progress: 40, provisioning_state: 'Downloading' });
    expect((await device.handleAction({ type: 'action', id: '2', action: 'os-update', params })).status).toBe(409);
    finish('balenaOS 6.1.0+rev0');
    await advance(0);
    expect(installed).toEqual(['balenaOS 6.1.0+rev0']);
    expect(calls.reports.at(-1)).toMatchObject({ provisioning_progress: 100 });
    await advance(1_000);
    expect(device.phase).toBe('offline');
    await advance(5_000);
    expect(device.phase).toBe('online');
    expect(calls.reports.at(-1)).toMatchObject({ os_version: 'balenaOS 6.1.0+rev0', provisioning_progress: null, provisioning_state: null, status: 'Idle' });
    expect(events.filter((e) => e.type === 'os-update').map((e) => (e as { phase: string }).phase)).toEqual(['progress', 'progress', 'progress', 'installed']);
    device.stop();
  });

  it('reports a failed install in provisioning_state and keeps its version', async () => {
    const host = { install: () => Promise.reject(new Error('OS update hook exited with code 4: no space left')) };
    const { device, calls, advance } = setup(false, () => 0, { osUpdate: host });
    device.start();
    await advance(1_000);
    expect((await device.handleAction({ type: 'action', id: '1', action: 'os-update', params })).status).toBe(200);
    await advance(0);
    expect(calls.reports.at(-1)).toMatchObject({ provisioning_progress: null, provisioning_state: 'OS update failed: OS update hook exited with code 4: no space left' });
    expect(device.reportedOsVersion).toBe('os');
    expect(device.phase).toBe('online');
    device.stop();
  });
});
