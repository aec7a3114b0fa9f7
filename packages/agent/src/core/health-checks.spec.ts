import { describe, expect, it } from 'vitest';
import {
  apiCheck,
  checksOutput,
  CHECK_NAMES,
  DIAGNOSE_VERSION,
  diskCheck,
  diskFromStatfs,
  engineCheck,
  memoryCheck,
  parseMeminfo,
  parseThrottled,
  restartsCheck,
  THRESHOLDS,
  timeCheck,
  voltageCheck,
} from './health-checks.js';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('the container engine check', () => {
  it('passes with the version, fails with what to do, and says when there is no engine', () => {
    expect(engineCheck({ version: '4.3.1' })).toEqual({ name: CHECK_NAMES.engine, success: true, status: expect.stringContaining('4.3.1') });
    const down = engineCheck({ error: 'connect ENOENT /run/podman/podman.sock' });
    expect(down.success).toBe(false);
    expect(down.status).toMatch(/ENOENT.*DOCKER_HOST/);
    expect(engineCheck(null)).toMatchObject({ success: true, status: expect.stringMatching(/--engine none/) });
  });
});

describe('the disk check', () => {
  it('fails under 10 % free or under 256 MB free, and passes otherwise', () => {
    expect(diskCheck({ path: '/data', freeBytes: 5 * GB, totalBytes: 32 * GB }).success).toBe(true);
    const low = diskCheck({ path: '/data', freeBytes: 2 * GB, totalBytes: 32 * GB });
    expect(low.success).toBe(false);
    expect(low.status).toMatch(/^Low disk space: 2\.0 GB of 32 GB \(6 %\) free on \/data\. Remove unused/);
    expect(diskCheck({ path: '/', freeBytes: 200 * MB, totalBytes: 1 * GB }).success).toBe(false);
    expect(diskCheck({ error: 'EACCES' })).toMatchObject({ success: false, status: expect.stringContaining('EACCES') });
  });

  it('counts the blocks available to unprivileged users as free (statfs bavail)', () => {
    expect(diskFromStatfs('/x', { blocks: 1000, bavail: 50, bsize: 4096 })).toEqual({ path: '/x', freeBytes: 50 * 4096, totalBytes: 1000 * 4096 });
  });
});

describe('the memory check', () => {
  const meminfo = 'MemTotal:        4045916 kB\nMemFree:          180000 kB\nMemAvailable:     300000 kB\nBuffers:  1 kB\n';

  it('reads MemTotal and MemAvailable from /proc/meminfo', () => {
    expect(parseMeminfo(meminfo)).toEqual({ totalBytes: 4045916 * 1024, availableBytes: 300000 * 1024 });
    expect(parseMeminfo('MemTotal: 100 kB\nMemFree: 50 kB\n')).toBeNull();
    expect(parseMeminfo('garbage')).toBeNull();
  });

  it('fails when less than 10 % is available', () => {
    const low = memoryCheck(parseMeminfo(meminfo)!);
    expect(low.success).toBe(false);
    expect(low.status).toMatch(/^Low memory: 293 MB of 3\.9 GB \(7 %\) available/);
    expect(memoryCheck({ totalBytes: 4 * GB, availableBytes: 1 * GB }).success).toBe(true);
  });
});

describe('the clock check (against the server Date header of the last poll)', () => {
  it('passes within 10 s, fails beyond with the direction, and does not fail before any poll', () => {
    const server = Date.parse('2030-01-01T00:00:00Z');
    expect(timeCheck({ lastPollOkAt: server + 2_000, lastPollServerDate: server }).success).toBe(true);
    const ahead = timeCheck({ lastPollOkAt: server + THRESHOLDS.clockMaxOffsetMs + 50_000, lastPollServerDate: server });
    expect(ahead).toMatchObject({ success: false, status: expect.stringMatching(/60 s ahead of the server's.*NTP/) });
    expect(timeCheck({ lastPollOkAt: server - 3 * 3600_000, lastPollServerDate: server }).status).toMatch(/3 h behind/);
    expect(timeCheck({ lastPollOkAt: null, lastPollServerDate: null }).success).toBe(true);
  });
});

describe('the restart-loop check', () => {
  it('fails on a service restarted 3 times or restarting now, naming it', () => {
    expect(restartsCheck([{ service: 'main', restartCount: 0, state: 'running' }]).success).toBe(true);
    const loop = restartsCheck([
      { service: 'main', restartCount: 0, state: 'running' },
      { service: 'crashy', restartCount: 7, state: 'running' },
      { service: 'other', restartCount: 1, state: 'restarting' },
    ]);
    expect(loop.success).toBe(false);
    expect(loop.status).toContain('crashy (7 restarts)');
    expect(loop.status).toContain('other (1 restarts, restarting now)');
    expect(loop.status).not.toContain('main');
    expect(restartsCheck(null).success).toBe(true);
    expect(restartsCheck({ error: 'boom' }).success).toBe(false);
  });
});

describe('the API connectivity check', () => {
  it('fails before the first poll and when the last poll is older than two intervals plus a minute', () => {
    const now = 10_000_000;
    expect(apiCheck({ now, lastPollOkAt: null, pollIntervalMs: 60_000 }).success).toBe(false);
    expect(apiCheck({ now, lastPollOkAt: now - 170_000, pollIntervalMs: 60_000 }).success).toBe(true);
    const stale = apiCheck({ now, lastPollOkAt: now - 190_000, pollIntervalMs: 60_000 });
    expect(stale).toMatchObject({ success: false, status: expect.stringMatching(/3 min ago \(expected every 60 s\)/) });
  });
});

describe('the under-voltage check (Raspberry Pi get_throttled bits)', () => {
  it('parses sysfs and vcgencmd forms', () => {
    expect(parseThrottled('50005\n')).toBe(0x50005);
    expect(parseThrottled('throttled=0x50000')).toBe(0x50000);
    expect(parseThrottled('0x0')).toBe(0);
    expect(parseThrottled('nonsense!')).toBeNull();
  });

  it('fails on under-voltage now (bit 0) or since boot (bit 16), ignores the other bits', () => {
    expect(voltageCheck({ value: 0x1, source: 's' })).toMatchObject({ success: false, status: expect.stringMatching(/under-voltage now/) });
    expect(voltageCheck({ value: 0x10000, source: 's' })).toMatchObject({ success: false, status: expect.stringMatching(/since it booted/) });
    expect(voltageCheck({ value: 0x80008 | 0x2, source: 's' }).success).toBe(true);
  });

  it('is not a failure when the hardware does not tell', () => {
    expect(voltageCheck(null)).toEqual({ name: CHECK_NAMES.voltage, success: true, status: 'Under-voltage is not reported by this hardware' });
  });
});

describe('the checks output', () => {
  it('carries diagnose_version and bounds each field', () => {
    const out = checksOutput([{ name: 'x'.repeat(500), success: true, status: 's'.repeat(5000) }]);
    expect(out.diagnose_version).toBe(DIAGNOSE_VERSION);
    expect(out.checks[0]!.name).toHaveLength(100);
    expect(out.checks[0]!.status).toHaveLength(1000);
  });
});
