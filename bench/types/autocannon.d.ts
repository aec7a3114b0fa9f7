// The subset of autocannon's API that the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  /** The raw request autocannon is about to send; `setupRequest` may change it. */
  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Request extends RawRequest {
    /** Called before every send of this request; returning a falsy value restarts the sequence. */
    setupRequest?: (req: RawRequest, context: Record<string, unknown>) => RawRequest | undefined;
  }

  interface Options {
    url: string;
    /** Sent in turn by every connection instead of the single method/headers/body. */
    requests?: Request[];
    /** Stop after this many requests instead of after `duration`. */
    amount?: number;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds to wait for a response before counting a timeout (default 10). */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    /** Seconds. */
    duration: number;
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(opts: Options): Instance;
  export default autocannon;
  export type { Options, Result, Histogram, Instance, Request, RawRequest };
}
