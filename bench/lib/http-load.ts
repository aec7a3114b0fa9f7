import autocannon, { type Request, type Result } from 'autocannon';

export interface HttpLoadOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  measureSeconds: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests each connection sends in turn (e.g. one whose `setupRequest` rotates over devices). */
  requests?: Request[];
  /** Measured phase of exactly this many requests instead of `measureSeconds`. */
  amount?: number;
}

export interface HttpLoadResult {
  /** Successful (2xx) responses per second over the measured phase. */
  rps: number;
  /** Every response per second, whatever its status. */
  rpsAll: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  responses: number;
  non2xx: number;
  timeouts: number;
  /** Connection errors other than timeouts. */
  connectionErrors: number;
  /** Responses by HTTP status. */
  statusCodes: Record<string, number>;
  /** Responses autocannon recorded without a status (it happens after timeouts reset a connection). */
  unknownStatus: number;
  durationSeconds: number;
}

/** autocannon against one URL: an unmeasured warm-up, then the measured phase. */
export async function httpLoad(opts: HttpLoadOptions): Promise<HttpLoadResult> {
  const base = {
    url: opts.url,
    connections: opts.connections,
    method: opts.method ?? 'GET',
    headers: opts.headers ?? {},
    ...(opts.body === undefined ? {} : { body: opts.body }),
    ...(opts.requests === undefined ? {} : { requests: opts.requests }),
  };
  if (opts.warmupSeconds > 0) await autocannon({ ...base, duration: opts.warmupSeconds });
  const measured = opts.amount === undefined ? { duration: opts.measureSeconds } : { amount: opts.amount };
  return summarise(await autocannon({ ...base, ...measured }));
}

function summarise(r: Result): HttpLoadResult {
  const counts = Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count] as const);
  const statusCodes = Object.fromEntries(counts.filter(([code]) => /^\d{3}$/.test(code)));
  const responses = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const unknownStatus = counts.filter(([code]) => !/^\d{3}$/.test(code)).reduce((a, [, n]) => a + n, 0);
  return {
    rps: r['2xx'] / r.duration,
    rpsAll: responses / r.duration,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    responses,
    non2xx: r.non2xx,
    timeouts: r.timeouts,
    connectionErrors: r.errors - r.timeouts,
    statusCodes,
    unknownStatus,
    durationSeconds: r.duration,
  };
}
