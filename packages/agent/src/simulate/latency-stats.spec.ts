import { describe, expect, it } from 'vitest';
import { LatencyHistogram, latencyBetween, latencyPercentile } from './latency-stats.js';

describe('poll latency histogram', () => {
  it('gives percentiles within 2 % of the samples', () => {
    const h = new LatencyHistogram();
    for (let ms = 1; ms <= 100; ms++) h.record(ms);
    const s = h.snapshot();
    expect(s.count).toBe(100);
    expect(s.maxMs).toBe(100);
    expect(latencyPercentile(s, 50)).toBeGreaterThanOrEqual(50);
    expect(latencyPercentile(s, 50)).toBeLessThanOrEqual(51);
    expect(latencyPercentile(s, 99)).toBeGreaterThanOrEqual(99);
    expect(latencyPercentile(s, 99)).toBeLessThanOrEqual(100);
    expect(latencyPercentile(s, 100)).toBe(100);
  });

  it('subtracts an earlier snapshot to give the window in between', () => {
    const h = new LatencyHistogram();
    for (let i = 0; i < 1000; i++) h.record(500);
    const start = h.snapshot();
    for (let i = 0; i < 99; i++) h.record(2);
    h.record(30);
    const window = latencyBetween(start, h.snapshot());
    expect(window.count).toBe(100);
    // The 1,000 slow polls before the window do not count.
    expect(latencyPercentile(window, 99)).toBeLessThan(2.1);
    expect(latencyPercentile(window, 100)).toBeGreaterThan(29);
    expect(latencyPercentile(window, 100)).toBeLessThan(31);
  });

  it('has no percentile without samples, and survives zero and sub-resolution values', () => {
    const h = new LatencyHistogram();
    expect(latencyPercentile(h.snapshot(), 99)).toBeNaN();
    h.record(0);
    h.record(0.01);
    expect(latencyPercentile(h.snapshot(), 100)).toBeLessThanOrEqual(0.05);
  });

  it('serialises to JSON and back unchanged', () => {
    const h = new LatencyHistogram();
    [3, 7, 7, 12.5].forEach((ms) => h.record(ms));
    const s = h.snapshot();
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
