import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';

type Memoized<F> = F & { clear(): void; delete(...args: unknown[]): void };
const memoize = createRequire(import.meta.url)('./memoizee.cjs') as <F extends (...args: never[]) => unknown>(fn: F, o?: object) => Memoized<F>;

afterEach(() => vi.useRealTimers());

describe('memoizee shim (balena-sdk options: primitive, promise, maxAge)', () => {
  it('calls once per key (the first fn.length arguments as strings) and again after clear()', async () => {
    let calls = 0;
    // A plain function: its `length` (1) decides the key, as balena-sdk's do.
    const fn = async (id: number, ..._rest: string[]) => {
      calls += 1;
      return `v${id}`;
    };
    const m = memoize(fn, { primitive: true, promise: true });
    expect(await m(1)).toBe('v1');
    expect(await m(1, 'other')).toBe('v1');
    expect(await m(2)).toBe('v2');
    expect(calls).toBe(2);
    m.clear();
    expect(await m(1)).toBe('v1');
    expect(calls).toBe(3);
  });

  it('shares one pending promise between callers, and forgets a rejected one', async () => {
    let fail = true;
    const fn = vi.fn(async () => {
      if (fail) throw new Error('down');
      return 'up';
    });
    const m = memoize(fn, { primitive: true, promise: true });
    const [a, b] = [m(), m()];
    expect(a).toBe(b);
    await expect(a).rejects.toThrow('down');
    fail = false;
    await Promise.resolve();
    expect(await m()).toBe('up');
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('expires an entry maxAge ms after it was stored', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fn = async (k: string) => {
      calls += 1;
      return k + Date.now();
    };
    const m = memoize(fn, { primitive: true, promise: true, maxAge: 1000 });
    const first = await m('a');
    vi.advanceTimersByTime(999);
    expect(await m('a')).toBe(first);
    vi.advanceTimersByTime(1);
    expect(await m('a')).not.toBe(first);
    expect(calls).toBe(2);
  });

  it('keys by normalizer(arguments) when given one (balena-semver’s compare)', () => {
    let calls = 0;
    const compare = memoize(
      (a: string, b: string) => {
        calls += 1;
        return a < b ? -1 : 1;
      },
      { primitive: true, normalizer: ([a, b]: string[]) => `${a} && ${b}` },
    );
    expect(compare('1.0.0', '2.0.0')).toBe(-1);
    expect(compare('1.0.0', '2.0.0')).toBe(-1);
    expect(compare('2.0.0', '1.0.0')).toBe(1);
    expect(calls).toBe(2);
  });

  it('refuses options it does not implement', () => {
    expect(() => memoize(() => 1, { max: 10 })).toThrow('not supported');
  });
});
