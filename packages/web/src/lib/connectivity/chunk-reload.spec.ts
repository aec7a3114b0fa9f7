import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mayReloadForChunk, reloadForFailedChunk } from './chunk-reload';

function memoryStore(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

describe('reloadForFailedChunk', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reloads once after the pause when the server answers, and not again within a minute', async () => {
    const store = memoryStore();
    const reload = vi.fn();
    let t = 1_000_000;
    const first = reloadForFailedChunk({ store, reachable: async () => true, reload, now: () => t });
    await vi.advanceTimersByTimeAsync(999);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(first).resolves.toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);

    // The reloaded page's chunk fails too (the chunk is really gone): the offer, at once.
    t += 59_999;
    await expect(reloadForFailedChunk({ store, reachable: async () => true, reload, now: () => t })).resolves.toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // A minute after the last one, a new failure may reload again.
    t += 1;
    const later = reloadForFailedChunk({ store, reachable: async () => true, reload, now: () => t });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(later).resolves.toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload while the server does not answer, and does not count that as a reload', async () => {
    const store = memoryStore();
    const reload = vi.fn();
    const down = reloadForFailedChunk({ store, reachable: async () => false, reload, now: () => 5_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(down).resolves.toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(mayReloadForChunk(store, 6_000)).toBe(true);
  });

  it('stops when cancelled (the page went elsewhere), and without session storage never reloads', async () => {
    const reload = vi.fn();
    let gone = false;
    const cancelled = reloadForFailedChunk({ store: memoryStore(), reachable: async () => true, reload, cancelled: () => gone });
    gone = true;
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(cancelled).resolves.toBe(false);
    await expect(reloadForFailedChunk({ store: undefined, reachable: async () => true, reload })).resolves.toBe(false);
    const broken = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('SecurityError'); } };
    await expect(reloadForFailedChunk({ store: broken, reachable: async () => true, reload })).resolves.toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
