import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTtlMemo, mapWithConcurrency, reasonKey, REASON_CACHE_MS, REASON_CHECK_CONCURRENCY } from './reason-checks';

describe('createTtlMemo', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers from the cache for 5000 ms, then computes again', async () => {
    const memo = createTtlMemo<number>();
    const compute = vi.fn(async () => compute.mock.calls.length);
    expect(await memo.get('k', compute)).toBe(1);
    vi.advanceTimersByTime(REASON_CACHE_MS - 1);
    expect(await memo.get('k', compute)).toBe(1);
    expect(compute).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(await memo.get('k', compute)).toBe(2);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('keeps keys apart and forgets a failed computation', async () => {
    const memo = createTtlMemo<string>();
    expect(await memo.get('a', async () => 'A')).toBe('A');
    expect(await memo.get('b', async () => 'B')).toBe('B');
    await expect(memo.get('c', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await memo.get('c', async () => 'C')).toBe('C');
  });

  it('shares one computation between concurrent callers', async () => {
    const memo = createTtlMemo<number>();
    const compute = vi.fn(() => new Promise<number>((resolve) => setTimeout(() => resolve(7), 100)));
    const both = Promise.all([memo.get('k', compute), memo.get('k', compute)]);
    vi.advanceTimersByTime(100);
    expect(await both).toEqual([7, 7]);
    expect(compute).toHaveBeenCalledTimes(1);
  });
});

describe('reasonKey', () => {
  it('is the action and the sorted ids', () => {
    expect(reasonKey('reboot', [3, 1, 2])).toBe(reasonKey('reboot', [1, 2, 3]));
    expect(reasonKey('reboot', [1, 2])).not.toBe(reasonKey('shutdown', [1, 2]));
  });
});

describe('mapWithConcurrency', () => {
  it('runs at most 10 at once and keeps the order', async () => {
    let running = 0;
    let peak = 0;
    const release: (() => void)[] = [];
    const items = Array.from({ length: 35 }, (_, i) => i);
    const done = mapWithConcurrency(items, REASON_CHECK_CONCURRENCY, async (i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running--;
      return i * 2;
    });
    // Let the calls start, then release them one by one.
    for (let settled = 0; settled < items.length; settled++) {
      await vi.waitFor(() => expect(release.length).toBeGreaterThan(settled));
      expect(running).toBeLessThanOrEqual(REASON_CHECK_CONCURRENCY);
      release[settled]!();
    }
    expect(await done).toEqual(items.map((i) => i * 2));
    expect(peak).toBe(REASON_CHECK_CONCURRENCY);
  });

  it('rejects with the first error and starts nothing after it', async () => {
    const fn = vi.fn(async (i: number) => {
      if (i === 0) throw new Error('first');
      return i;
    });
    await expect(mapWithConcurrency([0, 1, 2, 3], 1, fn)).rejects.toThrow('first');
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('handles an empty list and refuses a bad limit', async () => {
    expect(await mapWithConcurrency([], 10, async () => 1)).toEqual([]);
    await expect(mapWithConcurrency([1], 0, async () => 1)).rejects.toThrow(RangeError);
  });
});
