import { describe, expect, it } from 'vitest';
import { cutText, diagnosticAction, RecentLog, section, table } from './diagnose.js';
import { parseRoutes } from './diagnose-host.js';
import type { DeviceDiagnostics, DeviceRuntimeFacts } from './health-checks.js';

const facts: DeviceRuntimeFacts = { now: 0, lastPollOkAt: null, lastPollServerDate: null, pollIntervalMs: 1000, linkUp: true, serviceStatus: {} };

describe("the agent's recent log (ring buffer)", () => {
  it('keeps the last N lines, oldest first, each cut and timestamped', () => {
    const log = new RecentLog(3, 5, () => Date.parse('2030-01-01T00:00:00Z'));
    for (const m of ['one', 'two', 'three', 'four', 'a long line']) log.add(m);
    expect(log.snapshot()).toEqual(['2030-01-01T00:00:00.000Z three', '2030-01-01T00:00:00.000Z four', '2030-01-01T00:00:00.000Z a lon…']);
  });

  it('tees a log function', () => {
    const seen: string[] = [];
    const log = new RecentLog(10);
    log.tee((m) => seen.push(m))('hello');
    expect(seen).toEqual(['hello']);
    expect(log.snapshot()[0]).toMatch(/ hello$/);
  });
});

describe('diagnose text', () => {
  it('cuts with a note saying how much was left out', () => {
    const cut = cutText('x'.repeat(1000), 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut).toMatch(/\[… cut: \d+ more characters not shown\]/);
    expect(cutText('short', 200)).toBe('short');
  });

  it('makes sections and aligned tables', () => {
    expect(section('disk', [])).toBe('=== disk ===\n(nothing)\n');
    expect(table([['A', 'B'], ['long', 'x']])).toEqual(['A     B', 'long  x']);
  });

  it('reads /proc/net/route', () => {
    const text = 'Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\nwlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\nwlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\n';
    expect(parseRoutes(text)).toEqual(['default via 192.168.1.1 dev wlan0 metric 600', '192.168.1.0/24 dev wlan0 metric 600']);
  });
});

describe('the diagnostic actions', () => {
  const provider = (over: Partial<DeviceDiagnostics> = {}): DeviceDiagnostics => ({
    checks: async () => ({ checks: [{ name: 'c', success: true, status: 'ok' }], diagnose_version: '1' }),
    diagnose: async () => ({ stdout: 'o'.repeat(300_000), stderr: 'e' }),
    ...over,
  });

  it('answers checks and a bounded diagnose in the supervisor shape', async () => {
    expect(await diagnosticAction('health-checks', provider(), facts)).toEqual({ status: 200, body: { Data: { checks: [{ name: 'c', success: true, status: 'ok' }], diagnose_version: '1' }, Error: null } });
    const d = await diagnosticAction('diagnose', provider(), facts);
    const data = (d.body as { Data: { stdout: string; stderr: string } }).Data;
    expect(data.stdout.length).toBeLessThanOrEqual(256_000);
    expect(data.stdout).toContain('more characters not shown');
    expect(data.stderr).toBe('e');
  });

  it('answers 501 without a provider and 500 when the provider throws', async () => {
    expect((await diagnosticAction('diagnose', undefined, facts)).status).toBe(501);
    const failed = await diagnosticAction('health-checks', provider({ checks: () => Promise.reject(new Error('boom')) }), facts);
    expect(failed).toEqual({ status: 500, body: { Data: null, Error: 'health-checks failed on the device: boom' } });
  });
});
