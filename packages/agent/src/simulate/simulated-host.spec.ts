import { describe, expect, it } from 'vitest';
import { seededRandom } from '../core/backoff.js';
import { CITIES, drift, driftMetrics, initialDrift, simulatedIdentity, simulatedLocation, simulatedNetwork } from './simulated-host.js';

describe('virtual devices', () => {
  it('derive the same identity from the same seed and index, distinct across indexes', () => {
    const r = seededRandom(1);
    const a = simulatedIdentity(3, 42, r);
    expect(a).toEqual(simulatedIdentity(3, 42, r));
    expect(a.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(simulatedIdentity(4, 42, r).uuid).not.toBe(a.uuid);
    expect(simulatedIdentity(3, 43, r).uuid).not.toBe(a.uuid);
    expect(simulatedIdentity(0, undefined, r).uuid).toMatch(/^[0-9a-f]{32}$/);
  });

  it('get distinct addresses', () => {
    expect(simulatedNetwork(0x010203)).toEqual({ ipAddress: '10.1.2.3', macAddress: '02:F1:0A:01:02:03' });
  });

  it('are placed near one of the cities', () => {
    const r = seededRandom(9);
    for (let i = 0; i < 50; i++) {
      const { latitude, longitude } = simulatedLocation(r);
      const near = CITIES.some((c) => Math.abs(c.lat - Number(latitude)) <= 0.2 && Math.abs(c.lon - Number(longitude)) <= 0.2);
      expect(near).toBe(true);
    }
  });

  it('drift metrics that stay within physical bounds and do move', () => {
    const r = seededRandom(5);
    let s = initialDrift(r);
    const cpus = new Set<number>();
    for (let i = 0; i < 1_000; i++) {
      s = drift(s, r);
      const m = driftMetrics(s);
      cpus.add(m.cpu_usage);
      expect(m.cpu_usage).toBeGreaterThanOrEqual(0);
      expect(m.cpu_usage).toBeLessThanOrEqual(100);
      expect(m.memory_usage).toBeLessThanOrEqual(m.memory_total);
      expect(m.storage_usage).toBeLessThanOrEqual(m.storage_total);
      expect(m.cpu_temp).toBeGreaterThanOrEqual(30);
    }
    expect(cpus.size).toBeGreaterThan(10);
  });
});
