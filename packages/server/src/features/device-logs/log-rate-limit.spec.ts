import { describe, expect, it } from 'vitest';
import { LogRateLimiter } from './log-rate-limit.js';

describe('LogRateLimiter', () => {
  it('grants 15 batches per 10 s per device, then says how long to wait', () => {
    let now = 1_000_000;
    const limiter = new LogRateLimiter(15, 10_000, () => now);
    for (let i = 0; i < 15; i++) {
      expect(limiter.take(1)).toBe(0);
      now += 100;
    }
    expect(limiter.take(1)).toBe(10_000 - 1500);
    expect(limiter.take(2)).toBe(0);
    now += 10_000 - 1500;
    expect(limiter.take(1)).toBe(0);
    expect(limiter.take(1)).toBeGreaterThan(0);
  });

  it('forgets devices whose window is empty', () => {
    let now = 0;
    const limiter = new LogRateLimiter(15, 10_000, () => now);
    limiter.take(1);
    limiter.take(2);
    now = 5_000;
    limiter.take(2);
    now = 10_001;
    limiter.sweep();
    expect(limiter.size).toBe(1);
  });
});
