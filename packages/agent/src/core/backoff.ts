/**
 * Poll timing of the device protocol (dialect §4.2): the poll interval plus jitter, and on
 * errors a back-off of `min(interval, 15 s · 2^n)` so a broken server is not hammered but a
 * device never waits longer than one normal interval.
 */

/** The first error back-off step (15 s, as the reference supervisor uses). */
export const ERROR_BACKOFF_BASE_MS = 15_000;

/** A random number in [0, 1); injectable so the timing is testable. */
export type Random = () => number;

/**
 * The delay before the next poll: the interval stretched by up to `jitterFactor` (0.5 =
 * between 1× and 1.5× the interval), so thousands of devices started together spread out.
 */
export function jittered(intervalMs: number, random: Random, jitterFactor = 0.5): number {
  return Math.round(intervalMs * (1 + jitterFactor * random()));
}

/** The delay after `failures` consecutive errors (1 = the first failure). */
export function errorBackoff(intervalMs: number, failures: number, baseMs = ERROR_BACKOFF_BASE_MS): number {
  if (failures <= 0) return intervalMs;
  // 2^30 would already overflow any sane interval; clamp the exponent to keep it finite.
  const exp = Math.min(failures - 1, 30);
  return Math.min(intervalMs, baseMs * 2 ** exp);
}

/**
 * Reconnect delay of the cloud link: exponential from `baseMs` up to `maxMs`, with "full
 * jitter" (uniform in [delay/2, delay]) so a server restart is not met by a thundering herd.
 */
export function reconnectDelay(attempt: number, random: Random, baseMs = 1_000, maxMs = 60_000): number {
  const exp = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(maxMs, baseMs * 2 ** exp);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** A small seeded PRNG (mulberry32) so a simulation with `--seed` is reproducible. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
