import { describe, expect, it } from 'vitest';
import { errorBackoff, jittered, reconnectDelay, seededRandom } from './backoff.js';

describe('poll timing', () => {
  it('stretches the interval by up to half of it', () => {
    expect(jittered(60_000, () => 0)).toBe(60_000);
    expect(jittered(60_000, () => 0.5)).toBe(75_000);
    expect(jittered(60_000, () => 0.999999)).toBeLessThanOrEqual(90_000);
    expect(jittered(60_000, () => 0.999999)).toBeGreaterThan(89_000);
  });

  it('backs off 15 s · 2^n after errors, never beyond the poll interval', () => {
    const interval = 10 * 60_000;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => errorBackoff(interval, n))).toEqual([15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 600_000]);
    expect(errorBackoff(interval, 1_000)).toBe(interval);
    expect(errorBackoff(5_000, 3)).toBe(5_000);
    expect(errorBackoff(interval, 0)).toBe(interval);
  });

  it('reconnects the link with growing, capped, jittered delays', () => {
    expect(reconnectDelay(0, () => 0)).toBe(500);
    expect(reconnectDelay(0, () => 1)).toBe(1_000);
    expect(reconnectDelay(3, () => 1)).toBe(8_000);
    expect(reconnectDelay(50, () => 1)).toBe(60_000);
    expect(reconnectDelay(50, () => 0)).toBe(30_000);
  });

  it('gives the same sequence for the same seed, in [0, 1)', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = Array.from({ length: 100 }, () => a());
    expect(xs).toEqual(Array.from({ length: 100 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBeGreaterThan(95);
    expect(seededRandom(8)()).not.toBe(xs[0]);
  });
});
