import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../core/backoff.js';
import type { Device } from '../core/device.js';
import { startLogTestServer, type LogTestServer } from '../core/log-test-server.js';
import { Scheduler } from '../core/scheduler.js';
import type { TargetRelease } from '../core/target-state.js';
import { SimulatedLogs } from './simulated-logs.js';

const release = (commit: string, ids: number[]): TargetRelease => ({
  commit,
  id: 1,
  services: ids.map((id) => ({ name: `svc${id}`, id, imageId: id + 100, image: `registry/img${id}:${commit}` })),
});

/** The parts of a Device the log generator reads. */
const fakeDevice = (uuid: string, running: TargetRelease | null) =>
  ({ uuid, deviceId: 1, opts: { deviceApiKey: `key-${uuid}` }, phase: 'online', running, installing: null }) as unknown as Device & { running: TargetRelease | null; installing: TargetRelease | null };

describe('simulated device logs', () => {
  let server: LogTestServer;
  let logs: SimulatedLogs;
  let scheduler: Scheduler;
  afterEach(async () => {
    await logs?.stop();
    scheduler?.stop();
    await server?.close();
  });

  it('each device streams plausible lines of its own services (some stderr) on its own stream', async () => {
    server = await startLogTestServer();
    scheduler = new Scheduler();
    logs = new SimulatedLogs({ apiEndpoint: server.url, scheduler, random: seededRandom(7), ratePerMin: 6_000, flushMs: 20, graceMs: 10 });
    const a = fakeDevice('aaaa', release('c1', [1, 2]));
    const b = fakeDevice('bbbb', release('c1', [3]));
    const idle = fakeDevice('cccc', null);
    for (const d of [a, b, idle]) logs.add(d);
    await server.until(() => server.lines().length >= 200, '200 lines', 15_000);
    const byDevice = new Map<string, number[]>();
    for (const s of server.streams) byDevice.set(s.uuid, [...(byDevice.get(s.uuid) ?? []), ...s.lines.map((l) => l.serviceId!)]);
    expect([...byDevice.keys()].sort()).toEqual(['aaaa', 'bbbb']);
    expect(new Set(byDevice.get('aaaa'))).toEqual(new Set([1, 2]));
    expect(new Set(byDevice.get('bbbb'))).toEqual(new Set([3]));
    expect(server.streams.find((s) => s.uuid === 'aaaa')!.headers.authorization).toBe('Bearer key-aaaa');
    const lines = server.lines();
    expect(lines.every((l) => typeof l.message === 'string' && l.message.length > 0 && !l.isSystem)).toBe(true);
    expect(lines.some((l) => l.isStdErr)).toBe(true);
    expect(lines.filter((l) => l.isStdErr).length).toBeLessThan(lines.length / 4);
    expect(logs.stats().generated).toBeGreaterThanOrEqual(200);
  });

  it('setRate starts a quiet fleet’s service lines (and 0 stops them)', async () => {
    server = await startLogTestServer();
    scheduler = new Scheduler();
    logs = new SimulatedLogs({ apiEndpoint: server.url, scheduler, random: seededRandom(3), ratePerMin: 0, flushMs: 20, graceMs: 10 });
    logs.add(fakeDevice('eeee', release('c1', [5])));
    await new Promise((r) => setTimeout(r, 300));
    expect(logs.stats().generated).toBe(0);
    logs.setRate(6_000);
    await server.until(() => server.lines().length >= 20, '20 lines after setRate');
    logs.setRate(0);
    const generated = logs.stats().generated;
    await new Promise((r) => setTimeout(r, 300));
    expect(logs.stats().generated).toBe(generated);
  });

  it('an update, a restart and a reboot show as system lines', async () => {
    server = await startLogTestServer();
    scheduler = new Scheduler();
    logs = new SimulatedLogs({ apiEndpoint: server.url, scheduler, random: seededRandom(1), ratePerMin: 0, flushMs: 10, graceMs: 10 });
    const d = fakeDevice('dddd', release('old', [1]));
    logs.add(d);
    d.installing = release('new', [1]);
    logs.onEvent(d, { type: 'update', phase: 'downloading', progress: 0, commit: 'new' });
    logs.onEvent(d, { type: 'update', phase: 'downloading', progress: 50, commit: 'new' });
    logs.onEvent(d, { type: 'update', phase: 'applying changes', progress: 100, commit: 'new' });
    logs.onEvent(d, { type: 'update', phase: 'done', progress: 100, commit: 'new' });
    logs.onEvent(d, { type: 'action', action: 'restart', status: 200 });
    logs.onEvent(d, { type: 'action', action: 'reboot', status: 200 });
    await server.until(() => server.lines().length >= 8, 'the system lines');
    expect(server.lines().every((l) => l.isSystem)).toBe(true);
    expect(server.lines().map((l) => l.message)).toEqual([
      "Downloading image 'registry/img1:new'",
      "Downloaded image 'registry/img1:new'",
      "Killed service 'svc1'",
      "Installing service 'svc1 registry/img1:new'",
      "Started service 'svc1 registry/img1:new'",
      'Restarting all services',
      'Restarted all services',
      'Rebooting',
    ]);
  });
});
