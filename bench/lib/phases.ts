import type { BenchConfig } from './config.js';
import type { ChildServer } from './child.js';
import { httpLoad, type HttpLoadResult } from './http-load.js';
import { sequentialLatency, type LatencyResult } from './latency.js';
import { attempt, skipped, type Outcome } from './outcome.js';
import { readRssMb, RssSampler } from './rss.js';
import { sdkLoad, type SdkLoadResult } from './sdk-load.js';
import { BENCH_USER, seed, type SeededUser } from './seed.js';
import { sleep } from './stats.js';

export const LIST_PATH = '/v7/application?$expand=organization&$top=50';
const LIST_PAGE_SIZE = 50;

export const progress = (msg: string) => process.stderr.write(`› ${msg}\n`);

export interface BaselineFigures {
  load: HttpLoadResult;
  overload: HttpLoadResult;
  /** The (b) client loop against the baseline's canned page: what the client alone can do. */
  sdkCeiling: SdkLoadResult;
  latency: LatencyResult;
  rssIdleMb: number;
  rssPeakMb: number;
}

/** Every figure of the bare node:http server; a failure here is a failure of the harness. */
export async function measureBaseline(baseline: ChildServer, config: BenchConfig): Promise<BaselineFigures> {
  const url = `${baseline.baseUrl}/`;
  const rssIdleMb = readRssMb(baseline.pid);
  const sampler = new RssSampler(baseline.pid, config.rssSampleMs).start();

  progress(`baseline: ${config.connections} connections`);
  const load = await httpLoad({ url, connections: config.connections, ...timing(config) });
  progress(`baseline: ${config.overloadConnections} connections`);
  const overload = await httpLoad({ url, connections: config.overloadConnections, ...timing(config, false) });
  progress(`baseline: balena-sdk client ceiling, ${config.connections} concurrent calls`);
  const sdkCeiling = await sdkLoad({ apiUrl: baseline.baseUrl, concurrency: config.connections, ...timing(config) });
  if (sdkCeiling.errors > 0) throw new Error(`balena-sdk against the baseline failed: ${sdkCeiling.firstError}`);
  const { peakMb } = sampler.stop();

  progress('baseline: sequential latency');
  const latency = await sequentialLatency({ url, warmup: config.latencyWarmup, samples: config.latencySamples });
  return { load, overload, sdkCeiling, latency, rssIdleMb, rssPeakMb: peakMb };
}

export interface FlotillaFigures {
  /** (a) the fleet list over HTTP. */
  list: Outcome<HttpLoadResult>;
  /** (b) the fleet list through balena-sdk. */
  sdk: Outcome<SdkLoadResult>;
  /** (c) POST /login_ latency. */
  login: Outcome<LatencyResult>;
  /** (d) the fleet list with many connections. */
  overload: Outcome<HttpLoadResult>;
  /** (e) resident memory of the server process. */
  rssIdleMb: Outcome<number>;
  rssPeakMb: Outcome<number>;
}

export interface PreparedFlotilla {
  seeded: Outcome<SeededUser>;
  rssIdleMb: Outcome<number>;
}

/** Signs up the bench user, creates the fleets, then reads the idle size of the server. */
export async function prepareFlotilla(server: ChildServer, config: BenchConfig): Promise<PreparedFlotilla> {
  progress(`flotilla: signing up the bench user and creating ${config.fleets} fleets`);
  const seeded = await attempt(() => seed(server.baseUrl, config.fleets, config.seedConcurrency));
  await sleep(1_000); // Let the seeding's garbage settle before reading the idle size.
  const rssIdleMb = await attempt(async () => readRssMb(server.pid));
  return { seeded, rssIdleMb };
}

/** Runs (a)–(d) against the prepared server while sampling its memory (e); each fails on its own. */
export async function measureFlotilla(
  server: ChildServer,
  config: BenchConfig,
  { seeded, rssIdleMb }: PreparedFlotilla,
): Promise<FlotillaFigures> {
  const sampler = new RssSampler(server.pid, config.rssSampleMs).start();
  const listUrl = `${server.baseUrl}${LIST_PATH}`;
  const withUser = <T>(run: (user: SeededUser) => Promise<T>): Promise<Outcome<T>> =>
    seeded.ok ? attempt(() => run(seeded.value)) : Promise.resolve(skipped<T>(`seeding failed: ${seeded.error}`));

  progress(`flotilla (a): GET ${LIST_PATH}, ${config.connections} connections`);
  const list = await withUser(async (user) => {
    await expectFleetPage(listUrl, user.token);
    return httpLoad({ url: listUrl, headers: bearer(user.token), connections: config.connections, ...timing(config) });
  });

  progress(`flotilla (b): the same list through balena-sdk, ${config.connections} concurrent calls`);
  const sdk = await withUser((user) =>
    sdkLoad({ apiUrl: server.baseUrl, token: user.token, concurrency: config.connections, ...timing(config) }),
  );

  progress('flotilla (c): POST /login_ latency');
  const login = await attempt(() =>
    sequentialLatency({
      url: `${server.baseUrl}/login_`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: BENCH_USER.email, password: BENCH_USER.password }),
      warmup: config.latencyWarmup,
      samples: config.latencySamples,
    }),
  );

  progress(`flotilla (d): GET ${LIST_PATH}, ${config.overloadConnections} connections`);
  const overload = await withUser((user) =>
    httpLoad({
      url: listUrl,
      headers: bearer(user.token),
      connections: config.overloadConnections,
      ...timing(config, false),
    }),
  );

  const { peakMb, samples } = sampler.stop();
  const rssPeakMb: Outcome<number> =
    samples > 0 ? { ok: true, value: peakMb } : { ok: false, error: 'the server process could not be sampled' };
  return { list, sdk, login, overload, rssIdleMb, rssPeakMb };
}

function timing(config: BenchConfig, warmup = true) {
  return { warmupSeconds: warmup ? config.warmupSeconds : 0, measureSeconds: config.measureSeconds };
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** One request before loading: the list must answer a full page, or the load figures mean nothing. */
async function expectFleetPage(url: string, token: string): Promise<void> {
  const res = await fetch(url, { headers: bearer(token), signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${LIST_PATH} answered ${res.status}: ${text.slice(0, 300)}`);
  const rows = (JSON.parse(text) as { d?: unknown[] }).d;
  if (!Array.isArray(rows) || rows.length !== LIST_PAGE_SIZE) {
    const got = Array.isArray(rows) ? `${rows.length} rows` : 'no "d" array';
    throw new Error(`GET ${LIST_PATH} answered ${got}, expected ${LIST_PAGE_SIZE} rows`);
  }
}
