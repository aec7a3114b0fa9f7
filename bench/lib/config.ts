/** Durations and sizes of one bench run; BENCH_QUICK=1 shortens every timed phase to smoke-test the harness. */
export interface BenchConfig {
  quick: boolean;
  /** Seconds of load before each measured phase (results discarded). */
  warmupSeconds: number;
  /** Seconds of each measured phase. */
  measureSeconds: number;
  /** Concurrent connections (HTTP) or promises (SDK) of the throughput phases. */
  connections: number;
  /** Concurrent connections of the overload phase. */
  overloadConnections: number;
  /** Sequential requests of the latency phase (after a few unmeasured ones). */
  latencySamples: number;
  latencyWarmup: number;
  /** Fleets created for the bench user. */
  fleets: number;
  /** Concurrent POSTs while seeding. */
  seedConcurrency: number;
  /** Devices registered for the device-API phases (BENCH_DEVICES overrides it). */
  devices: number;
  /** Interval of the RSS sampler. */
  rssSampleMs: number;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const quick = env.BENCH_QUICK === '1';
  return {
    quick,
    warmupSeconds: quick ? 1 : 5,
    measureSeconds: quick ? 3 : 15,
    connections: 50,
    overloadConnections: 2000,
    latencySamples: 40,
    latencyWarmup: 5,
    fleets: 500,
    seedConcurrency: 10,
    devices: Number(env.BENCH_DEVICES) > 0 ? Math.floor(Number(env.BENCH_DEVICES)) : quick ? 300 : 10_000,
    rssSampleMs: 250,
  };
}
