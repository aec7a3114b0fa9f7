import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuTimes, cpuUsage, hostMetricsSampler, memoryFromMeminfo, readCpuTemp, storageFromStatfs } from './metrics.js';
import { localNetwork } from './network.js';

const cpu = (user: number, idle: number) => ({ model: 'x', speed: 1, times: { user, nice: 0, sys: 0, idle, irq: 0 } });

describe('host metrics', () => {
  it('computes CPU usage from the deltas between two samples of all cores', () => {
    const a = cpuTimes([cpu(100, 900), cpu(100, 900)]);
    const b = cpuTimes([cpu(175, 925), cpu(150, 950)]);
    // busy: 75 + 50 of 100 + 100 elapsed
    expect(cpuUsage(a, b)).toBe(63);
    expect(cpuUsage(a, a)).toBe(0);
  });

  it('counts memory as total minus available, in MB', () => {
    const MB = 1024 * 1024;
    expect(memoryFromMeminfo('MemTotal: 1 kB\nMemAvailable:     524288 kB\n', 2048 * MB, 100 * MB)).toEqual({ usage: 1536, total: 2048 });
    expect(memoryFromMeminfo(null, 2048 * MB, 1024 * MB)).toEqual({ usage: 1024, total: 2048 });
  });

  it('turns statfs blocks into used and total MB', () => {
    expect(storageFromStatfs({ blocks: 1024, bfree: 256, bsize: 4096 })).toEqual({ usage: 3, total: 4 });
  });

  it('reads the hottest thermal zone in °C, and null without thermal zones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'thermal-'));
    for (const [zone, milli] of [['thermal_zone0', '48312'], ['thermal_zone1', '51900']] as const) {
      mkdirSync(join(dir, zone));
      writeFileSync(join(dir, zone, 'temp'), `${milli}\n`);
    }
    expect(readCpuTemp(dir)).toBe(52);
    expect(readCpuTemp(join(dir, 'missing'))).toBeNull();
  });

  it('samples this host with every field of the report in range', () => {
    const sample = hostMetricsSampler()();
    expect(Object.keys(sample).sort()).toEqual(['cpu_id', 'cpu_temp', 'cpu_usage', 'memory_total', 'memory_usage', 'storage_block_device', 'storage_total', 'storage_usage']);
    expect(sample.cpu_usage).toBeGreaterThanOrEqual(0);
    expect(sample.cpu_usage).toBeLessThanOrEqual(100);
    expect(sample.memory_total).toBeGreaterThan(0);
    expect(sample.memory_usage).toBeLessThanOrEqual(sample.memory_total);
    expect(sample.storage_total).toBeGreaterThan(0);
    expect(sample.storage_usage).toBeLessThanOrEqual(sample.storage_total);
  });

  it('lists non-internal IPv4 addresses and MACs, skipping container bridges', () => {
    const info = (address: string, mac: string, family: 'IPv4' | 'IPv6' = 'IPv4', internal = false) => ({ address, mac, family, internal, netmask: '', cidr: null });
    const net = localNetwork({
      lo: [info('127.0.0.1', '00:00:00:00:00:00', 'IPv4', true)],
      eth0: [info('192.168.1.20', 'b8:27:eb:00:00:01'), info('fe80::1', 'b8:27:eb:00:00:01', 'IPv6')],
      wlan0: [info('192.168.1.21', 'b8:27:eb:00:00:02')],
      docker0: [info('172.17.0.1', '02:42:00:00:00:01')],
    } as never);
    expect(net).toEqual({ ipAddress: '192.168.1.20 192.168.1.21', macAddress: 'B8:27:EB:00:00:01 B8:27:EB:00:00:02' });
  });
});
