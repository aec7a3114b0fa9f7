import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimitNotice, retryAfterSeconds, shouldRetryRateLimited } from './rate-limit';

const headers = (value: string | null) => ({ get: (name: string) => (name.toLowerCase() === 'retry-after' ? value : null) });

describe('RateLimitNotice', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays for Retry-After when that is longer than 5 s', () => {
    const notice = new RateLimitNotice();
    notice.report(30);
    expect(notice.getUntil()).toBe(Date.now() + 30_000);
    vi.advanceTimersByTime(29_999);
    expect(notice.getUntil()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(notice.getUntil()).toBeNull();
  });

  it('stays 5 s when Retry-After is shorter or missing', () => {
    for (const retryAfter of [1, 0, undefined]) {
      const notice = new RateLimitNotice();
      notice.report(retryAfter);
      vi.advanceTimersByTime(4_999);
      expect(notice.getUntil()).not.toBeNull();
      vi.advanceTimersByTime(1);
      expect(notice.getUntil()).toBeNull();
    }
  });

  it('a later 429 extends the banner; a shorter one does not cut it', () => {
    const notice = new RateLimitNotice();
    const changes: (number | null)[] = [];
    notice.subscribe(() => changes.push(notice.getUntil()));
    notice.report(10);
    vi.advanceTimersByTime(8_000);
    notice.report(1); // ends 5 s from now: later than the first 10 s
    vi.advanceTimersByTime(2_000);
    expect(notice.getUntil()).not.toBeNull();
    vi.advanceTimersByTime(3_000);
    expect(notice.getUntil()).toBeNull();
    notice.report(20);
    notice.report(2);
    vi.advanceTimersByTime(19_999);
    expect(notice.getUntil()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(notice.getUntil()).toBeNull();
    expect(changes.filter((c) => c === null)).toHaveLength(2);
  });
});

describe('retryAfterSeconds', () => {
  it('reads whole seconds, and nothing else', () => {
    expect(retryAfterSeconds(headers('12'))).toBe(12);
    expect(retryAfterSeconds(headers('0'))).toBe(0);
    expect(retryAfterSeconds(headers(null))).toBeUndefined();
    expect(retryAfterSeconds(headers('soon'))).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });
});

describe('shouldRetryRateLimited', () => {
  it('retries reads that wait at most a minute, at most 3 times', () => {
    expect(shouldRetryRateLimited('GET', 2_000, 0)).toBe(true);
    expect(shouldRetryRateLimited(undefined, 60_000, 2)).toBe(true);
    expect(shouldRetryRateLimited('GET', 60_001, 0)).toBe(false);
    expect(shouldRetryRateLimited('GET', 2_000, 3)).toBe(false);
    expect(shouldRetryRateLimited('GET', undefined, 0)).toBe(false);
  });

  it('never repeats a write', () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) expect(shouldRetryRateLimited(method, 1_000, 0)).toBe(false);
  });
});
