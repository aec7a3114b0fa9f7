import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootstrapWithTimeout, scheduleBootstrapRetry } from './bootstrap';
import { isChunkLoadError, loadChunk } from './timeouts';

const never = <T>() => new Promise<T>(() => {});

describe('loadChunk', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fails a chunk that has not loaded after 120 s', async () => {
    const load = loadChunk(never);
    const outcome = load.then(
      () => 'loaded',
      (err: unknown) => err,
    );
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    void outcome.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await outcome;
    expect((err as Error).message).toMatch(/^Loading chunk failed: No answer within 120 s/);
    expect(((err as Error).cause as Error).name).toBe('TimeoutError');
    expect(isChunkLoadError(err)).toBe(true);
  });

  it('passes a loaded module through and turns an import failure into a ChunkLoadError', async () => {
    await expect(loadChunk(async () => ({ Page: 1 }))).resolves.toEqual({ Page: 1 });
    const failed = loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')));
    await expect(failed).rejects.toThrow(/^Loading chunk failed: Failed to fetch dynamically imported module/);
  });
});

describe('isChunkLoadError', () => {
  it("knows the browsers' texts for a module that failed to load", () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Loading chunk 42 failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});

describe('bootstrap', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fails the start-up after 59 s without an answer', async () => {
    const outcome = bootstrapWithTimeout(never).catch((err: unknown) => err);
    let settled = false;
    void outcome.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(58_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await outcome as Error).name).toBe('TimeoutError');
  });

  it('answers as soon as the bootstrap does', async () => {
    await expect(bootstrapWithTimeout(async () => 'session')).resolves.toBe('session');
  });

  it('tries again 10 s after a failure, unless cancelled', () => {
    const retry = vi.fn();
    scheduleBootstrapRetry(retry);
    vi.advanceTimersByTime(9_999);
    expect(retry).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(retry).toHaveBeenCalledTimes(1);
    const cancelled = vi.fn();
    const cancel = scheduleBootstrapRetry(cancelled);
    cancel();
    vi.advanceTimersByTime(20_000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
