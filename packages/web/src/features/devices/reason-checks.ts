/**
 * Spec 2 §4, §9: "Disabled-reason results are cached for 5000 ms; reason checks run with
 * concurrency 10." A small TTL memo and a concurrency-limited mapper, no React, no I/O.
 */

export const REASON_CACHE_MS = 5_000;
export const REASON_CHECK_CONCURRENCY = 10;

/**
 * Memoises an async computation by key for `ttlMs`, counted from when it was started; a
 * rejected computation is forgotten at once so the next call tries again.
 */
export function createTtlMemo<T>(ttlMs: number = REASON_CACHE_MS, now: () => number = Date.now) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return {
    get(key: string, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value;
      const value = compute();
      entries.set(key, { at: now(), value });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    clear(): void {
      entries.clear();
    },
  };
}

/** The cache key of a reason check: the action and the (order-free) set of device ids. */
export function reasonKey(action: string, deviceIds: readonly number[]): string {
  return `${action}:${[...deviceIds].sort((a, b) => a - b).join(',')}`;
}

/**
 * Maps `items` through `fn` with at most `limit` calls in flight at once; results keep the
 * input order. A rejection rejects the whole map (after the calls already started settle).
 */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}
