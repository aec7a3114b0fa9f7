/**
 * Latency of the simulated devices' calls, kept as a cumulative histogram with geometric
 * buckets (each 2 % wider than the last, from 0.05 ms): constant memory however many polls,
 * percentiles within 2 %. Snapshots are plain JSON, so a reader (the bench) can subtract the
 * snapshot taken at the start of a window from the one at its end and get that window's
 * percentiles exactly as the simulator would.
 */

const FIRST_BUCKET_MS = 0.05;
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);

/** A histogram as written to the stats file: [bucket upper bound in ms, count] pairs, ascending. */
export interface LatencySnapshot {
  count: number;
  sumMs: number;
  maxMs: number;
  buckets: [number, number][];
}

export class LatencyHistogram {
  private readonly counts = new Map<number, number>();
  private count = 0;
  private sumMs = 0;
  private maxMs = 0;

  record(ms: number): void {
    const index = bucketIndex(ms);
    this.counts.set(index, (this.counts.get(index) ?? 0) + 1);
    this.count++;
    this.sumMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  snapshot(): LatencySnapshot {
    const buckets = [...this.counts.entries()].sort((a, b) => a[0] - b[0]).map(([i, n]): [number, number] => [round(upperBound(i)), n]);
    return { count: this.count, sumMs: round(this.sumMs), maxMs: round(this.maxMs), buckets };
  }
}

function bucketIndex(ms: number): number {
  if (!(ms > FIRST_BUCKET_MS)) return 0;
  return Math.ceil(Math.log(ms / FIRST_BUCKET_MS) / LOG_GROWTH);
}

function upperBound(index: number): number {
  return FIRST_BUCKET_MS * GROWTH ** index;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** What happened between two snapshots of the same histogram (`before` may be empty). */
export function latencyBetween(before: LatencySnapshot | null, after: LatencySnapshot): LatencySnapshot {
  if (before === null) return after;
  const earlier = new Map(before.buckets);
  const buckets = after.buckets
    .map(([bound, n]): [number, number] => [bound, n - (earlier.get(bound) ?? 0)])
    .filter(([, n]) => n > 0);
  // The maximum of a window is not recoverable from cumulative snapshots: the highest bucket bounds it.
  const maxMs = buckets.length > 0 ? Math.min(after.maxMs, buckets[buckets.length - 1]![0]) : 0;
  return { count: after.count - before.count, sumMs: round(after.sumMs - before.sumMs), maxMs, buckets };
}

/** Nearest-rank percentile (p in 0..100) of a snapshot, as its bucket's upper bound; NaN when empty. */
export function latencyPercentile(s: LatencySnapshot, p: number): number {
  if (s.count <= 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * s.count));
  let seen = 0;
  for (const [bound, n] of s.buckets) {
    seen += n;
    if (seen >= rank) return Math.min(bound, s.maxMs);
  }
  return s.maxMs;
}
