import { describe, expect, it } from 'vitest';
import { errorStatusOf, historyCount, reconnectDelayMs } from './reconnect-policy';

const later = { first: false, opened: true };

describe('log stream reconnect policy (spec 2 §4, §9)', () => {
  it('reconnects after 1 s on an ordinary error', () => {
    expect(reconnectDelayMs(new Error('network'), later)).toBe(1_000);
    expect(reconnectDelayMs({ statusCode: 500 }, later)).toBe(1_000);
    // A first attempt whose stream had opened is not an initial failure.
    expect(reconnectDelayMs(new Error('network'), { first: true, opened: true })).toBe(1_000);
  });

  it('waits 10 s after a rate limit or a 503', () => {
    expect(reconnectDelayMs({ statusCode: 429 }, later)).toBe(10_000);
    expect(reconnectDelayMs({ statusCode: 503 }, later)).toBe(10_000);
  });

  it('waits 10 s after an initial failure', () => {
    expect(reconnectDelayMs(new Error('refused'), { first: true, opened: false })).toBe(10_000);
  });

  it('asks for 100 lines of history first and none on reconnect', () => {
    expect(historyCount(false)).toBe(100);
    expect(historyCount(true)).toBe(0);
  });

  it('reads the status of SDK errors only', () => {
    expect(errorStatusOf({ statusCode: 429 })).toBe(429);
    expect(errorStatusOf({ statusCode: '429' })).toBeUndefined();
    expect(errorStatusOf(null)).toBeUndefined();
    expect(errorStatusOf('x')).toBeUndefined();
  });
});
