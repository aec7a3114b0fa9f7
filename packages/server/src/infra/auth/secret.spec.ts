import { describe, expect, it } from 'vitest';
import { generateApiKey } from './api-keys.js';
import { alphanumericSecret } from './secret.js';

describe('alphanumericSecret', () => {
  it('draws 100,000 API keys of letters and digits only, none starting with - or _', () => {
    const seen = new Set<string>();
    const malformed: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const key = generateApiKey();
      // One plain test per key and one expect at the end: 100,000 expect() calls took seconds.
      if (!/^[A-Za-z0-9]{33}$/.test(key)) malformed.push(key);
      seen.add(key);
    }
    expect(malformed).toEqual([]);
    expect(seen.size).toBe(100_000);
  });

  it('keeps at least the entropy asked for', () => {
    for (const bits of [96, 144, 192, 256]) expect(alphanumericSecret(bits).length * Math.log2(62)).toBeGreaterThanOrEqual(bits);
  });

  it('uses the whole alphabet, about evenly', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) for (const c of alphanumericSecret(192)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const mean = (2_000 * 33) / 62;
    for (const n of counts.values()) expect(Math.abs(n - mean) / mean).toBeLessThan(0.25);
  });
});
