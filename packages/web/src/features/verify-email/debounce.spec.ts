import { describe, expect, it } from 'vitest';
import { debounceLeading } from './debounce';

describe('debounceLeading (verification resend, 300 ms)', () => {
  it('runs the first call and drops calls within 300 ms of the previous one', () => {
    let now = 1_000;
    const calls: number[] = [];
    const send = debounceLeading((n: number) => calls.push(n), 300, () => now);
    expect(send(1)).toBe(true);
    now += 100;
    expect(send(2)).toBe(false);
    now += 250; // 250 ms after the dropped call: still inside its window
    expect(send(3)).toBe(false);
    now += 300;
    expect(send(4)).toBe(true);
    expect(calls).toEqual([1, 4]);
  });
});
