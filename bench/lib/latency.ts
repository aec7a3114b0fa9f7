import { percentile } from './stats.js';

export interface LatencyOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Unmeasured requests first. */
  warmup: number;
  samples: number;
}

export interface LatencyResult {
  p50Ms: number;
  p90Ms: number;
  minMs: number;
  maxMs: number;
  samples: number;
}

/** One request at a time; every answer must be 2xx. */
export async function sequentialLatency(opts: LatencyOptions): Promise<LatencyResult> {
  const times: number[] = [];
  for (let i = 0; i < opts.warmup + opts.samples; i++) {
    const started = performance.now();
    const res = await fetch(opts.url, {
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const elapsed = performance.now() - started;
    if (!res.ok) throw new Error(`${opts.method ?? 'GET'} ${opts.url} answered ${res.status}: ${text.slice(0, 300)}`);
    if (i >= opts.warmup) times.push(elapsed);
  }
  return {
    p50Ms: percentile(times, 50),
    p90Ms: percentile(times, 90),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    samples: times.length,
  };
}
