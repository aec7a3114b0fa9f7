import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chunkFailureHandler, mayReloadForChunk, reloadForFailedChunk } from './chunk-reload';

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

describe('chunkFailureHandler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const failure = () => new Error('Loading chunk failed: Failed to fetch dynamically imported module: /assets/page-1.js');
  function handler(store: Storage | undefined = memoryStore()) {
    const log = { warn: vi.fn(), error: vi.fn() };
    const reload = vi.fn();
    return { log, reload, chunks: chunkFailureHandler({ store: () => store, reachable: async () => true, reload, log }) };
  }

  it('a boundary that mounts again for the same failure joins it: one warning, one reload', async () => {
    const { log, reload, chunks } = handler();
    const first = chunks.shown();
    const a = chunks.handle(failure());
    // The router renders the route again: the old boundary goes, a new one comes with a new error object.
    first();
    chunks.shown();
    const b = chunks.handle(failure());
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(Promise.all([a, b])).resolves.toEqual([true, true]);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('after its own reload, the same failure is one error however often the boundary mounts', async () => {
    const store = memoryStore();
    const before = handler(store);
    before.chunks.shown();
    void before.chunks.handle(failure());
    await vi.advanceTimersByTimeAsync(1_000);
    // The reloaded document: a new handler, the chunk fails again.
    const after = handler(store);
    after.chunks.shown();
    await expect(after.chunks.handle(failure())).resolves.toBe(false);
    await expect(after.chunks.handle(failure())).resolves.toBe(false);
    expect(after.log.error).toHaveBeenCalledTimes(1);
    expect(after.log.warn).not.toHaveBeenCalled();
    expect(after.reload).not.toHaveBeenCalled();
  });

  it('a boundary that goes before the reload cancels it, and a later failure is a new try', async () => {
    const { log, reload, chunks } = handler();
    const gone = chunks.shown();
    const a = chunks.handle(failure());
    gone();
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(a).resolves.toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(log.error).not.toHaveBeenCalled();
    chunks.shown();
    const b = chunks.handle(failure());
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(b).resolves.toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledTimes(2);
  });
});
