// `npm run soak` (issue 21): one built server (embedded PostgreSQL, as `npm start` runs it),
// SOAK_DEVICES simulated devices (one `flotilla-agent simulate` process: polls, state reports,
// log lines at SOAK_LOG_RATE a minute each, cloud links), SOAK_AGENTS real agents
// (`flotilla-agent run --engine podman`, one Podman engine) running a two-service release,
// SOAK_SESSIONS dashboard sessions (balena-sdk, plus one Chromium page) and periodic registry
// pulls, for SOAK_MINUTES once every device is online. Prints the figures and writes
// bench/results/soak.json. Exit code 1 when memory was not flat or any error was counted (every failed request,
// stream, terminal, pull, agent or server error) or a device was not online at the end.
// See bench/README.md ("The soak") and docs/sizing.md.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_POLL_INTERVAL_MS } from '@flotilla/model';
import { latencyBetween, latencyPercentile, POLL_JITTER, type RunningAgent, type SimulationStats } from '@flotilla/agent';
import { removeLabelled, startTestEngine, type TestEngine } from '@flotilla/server/test-engine';
import { Api } from './lib/api.js';
import { type CpuSummary, startCpuProfile, stopCpuProfile, summariseCpuProfile } from './lib/cpu-profile.js';
import { eventLoopDelayMs, InspectorSession } from './lib/inspector.js';
import { prepareFleet } from './lib/logs.js';
import { progress } from './lib/phases.js';
import { stopOnSignals } from './lib/stop-signals.js';
import { readRssMb } from './lib/rss.js';
import { count, flotillaDeploy, SERVICES, startAgents, until, writeProject } from './lib/rollout.js';
import { countDevices, cpuSeconds, createFleet, settledRss, SimulatorProcess, waitFor } from './lib/scale.js';
import { seed, type SeededUser } from './lib/seed.js';
import { startFlotilla, type FlotillaServer } from './lib/servers.js';
import { Errors, startDashboardSessions, startRegistryPulls } from './lib/soak-load.js';
import { sleep } from './lib/stats.js';

const RESULTS_FILE = fileURLToPath(new URL('./results/soak.json', import.meta.url));
const CPU_PROFILE_FILE = fileURLToPath(new URL('./results/soak-cpu.cpuprofile', import.meta.url));
const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? '');
  return process.env[name] !== undefined && process.env[name] !== '' && Number.isFinite(value) && value >= 0 ? value : fallback;
};

export const SOAK = {
  minutes: num('SOAK_MINUTES', 10),
  devices: Math.floor(num('SOAK_DEVICES', 10_000)),
  agents: Math.floor(num('SOAK_AGENTS', 20)),
  sessions: Math.floor(num('SOAK_SESSIONS', 20)),
  /** The simulated fleet's BALENA_SUPERVISOR_POLL_INTERVAL (the simulator's default, 60 s). */
  pollSeconds: num('SOAK_POLL_SECONDS', 60),
  /**
   * Service log lines per minute per simulated device. 1: a stream stays open 50 s after a
   * line (the agent's idleMs), so ~57 % of devices hold one; with the links that stays under
   * this machine's 20,000 open files per process.
   */
  logRate: num('SOAK_LOG_RATE', 1),
  /**
   * Loopback source addresses the simulator spreads its devices over (127.0.0.2, …; Linux
   * routes all of 127/8 to lo): one per 2,500 devices unless SOAK_SOURCE_ADDRESSES says (0: none).
   * Every device holds a link and most of the time a log stream to the one server address. From
   * one source address Linux's connect() takes even ports first and, once the ~14,000 even ports
   * of the default range (32768–60999) are in use, scans all of them on every connect: at 10,000
   * devices the simulator spent a fifth of its time in connect() and the kernel a third of the
   * machine's. Real devices come from as many addresses as there are devices.
   */
  sourceAddresses: Math.floor(num('SOAK_SOURCE_ADDRESSES', process.platform === 'linux' ? Math.ceil(num('SOAK_DEVICES', 10_000) / 2_500) : 0)),
  sampleMs: 10_000,
  terminalEveryMs: num('SOAK_TERMINAL_SECONDS', 20) * 1000,
  pullEveryMs: num('SOAK_PULL_SECONDS', 30) * 1000,
  pullConcurrency: Math.floor(num('SOAK_PULL_CONCURRENCY', 20)),
  /** When above 0, a CPU profile of the server over the window's first this many seconds (bench/results/soak-cpu.cpuprofile). */
  cpuProfileSeconds: num('SOAK_CPU_PROFILE_SECONDS', 0),
  browser: process.env.SOAK_BROWSER === '0' ? undefined : (process.env.SOAK_CHROMIUM ?? '/usr/bin/chromium-headless-shell'),
  /**
   * Memory is "flat" when the live memory's regression slope over the window's second half
   * (V8 heap + external, right after a full collection) is below this (a falling slope is flat).
   */
  flatMbPerMin: 1,
  /** The share of the polls due the devices must make for the run to count (else the machine did not carry the load). */
  minScheduleShare: 0.9,
  /** Every this many samples, a full collection and the live memory after it. */
  gcEverySamples: 3,
} as const;

interface Sample {
  t: number;
  rssMb: number;
  cpuCores: number;
  loopP99Ms: number;
  loopMaxMs: number;
  pgConnections: number;
  pgActive: number;
  /** Simulated devices online by the API's count (is_online and an online heartbeat). */
  online: number;
  simulatorCpuCores: number;
  /** The simulator's event-loop delay p99 over its last 5-s stats interval, and the age of those stats. */
  simulatorLoopP99Ms: number;
  simulatorStatsAgeS: number;
  /** Every SOAK.gcEverySamples-th sample: right after a full collection, the live V8 heap, external memory and RSS (MB). */
  afterGc?: { heapUsedMb: number; heapTotalMb: number; externalMb: number; liveMb: number; rssMb: number };
}

/** A sampling heap profile's node: a call frame, the live bytes allocated there, its callees. */
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/**
 * Where the memory allocated during the window and still live at its end was allocated: the
 * sampling heap profile's live bytes summed by allocating function and, for each, the
 * innermost frame of our own code on the way there (the profile keeps only what survived
 * the last collection).
 */
function liveAllocationSites(root: ProfileNode, top = 15): { site: string; via: string; mb: number }[] {
  const bySite = new Map<string, number>();
  const ours = (url: string) => url.includes('/packages/') && !url.includes('node_modules');
  const where = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
  const walk = (node: ProfileNode, via: string) => {
    const here = ours(node.callFrame.url) ? where(node.callFrame) : via;
    if (node.selfSize > 0) {
      const key = `${where(node.callFrame)}\u0000${here}`;
      bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    }
    for (const c of node.children) walk(c, here);
  };
  walk(root, '');
  return [...bySite.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, bytes]) => {
      const [site, via] = key.split('\u0000');
      return { site: site!, via: via!, mb: bytes / 1024 / 1024 };
    });
}

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** Client connections to the server's database (ours excluded), and how many are running a query. */
async function pgConnections(databaseUrl: string): Promise<{ total: number; active: number }> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ total: number; active: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE state = 'active'))::int AS active
         FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

/** The database's size and its two tables that grow with devices (bytes, rows). */
async function databaseSizes(databaseUrl: string): Promise<{ databaseMb: number; deviceMb: number; devices: number; deviceLogMb: number; logLines: number }> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ db: string; device: string; devices: number; log: string; lines: number }>(
      `SELECT pg_database_size(current_database())::text AS db,
              pg_total_relation_size('device')::text AS device, (SELECT count(*)::int FROM device) AS devices,
              pg_total_relation_size('device_log')::text AS log, (SELECT count(*)::int FROM device_log) AS lines`,
    );
    const r = rows[0]!;
    const mb = (b: string) => Number(b) / 1024 / 1024;
    return { databaseMb: mb(r.db), deviceMb: mb(r.device), devices: r.devices, deviceLogMb: mb(r.log), logLines: r.lines };
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const loadBefore = loadavg();
  const errors = new Errors();
  const serverErrors: string[] = [];
  let serverWarnings = 0;
  const cleanups: (() => Promise<unknown>)[] = [];
  // One run of the stop tasks, newest first, whoever asks first (Ctrl-C or the end); later callers wait for it.
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const c of cleanups.splice(0).reverse()) await c().catch((err: unknown) => progress(`cleanup failed: ${String(err)}`));
    })());
  stopOnSignals(cleanup, 'the server, agents, simulator and containers');

  let flotilla: FlotillaServer | undefined;
  try {
    progress(`soak: ${SOAK.devices} simulated devices, ${SOAK.agents} real agents, ${SOAK.sessions} dashboard sessions${SOAK.browser ? ' + 1 Chromium page' : ''}, ${SOAK.minutes} min`);
    flotilla = await startFlotilla({
      inspect: true,
      onLine: (line) => {
        // pino: 40 warn, 50 error, 60 fatal (LOG_LEVEL=warn prints nothing below).
        const level = /"level":(\d+)/.exec(line)?.[1];
        if (level !== undefined && Number(level) >= 50) {
          errors.add('server log', line);
          if (serverErrors.length < 20) serverErrors.push(line.slice(0, 600));
        } else if (level === '40') serverWarnings++;
      },
    });
    const server = flotilla;
    cleanups.push(() => server.stop());
    const baseUrl = server.server.baseUrl;
    const inspectUrl = server.inspectUrl!;
    const user: SeededUser = await seed(baseUrl, 50, 10);
    const api = new Api(baseUrl, user.token);
    const runId = `soak-${randomBytes(4).toString('hex')}`;
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-soak-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));

    // --- the real agents: one engine, a two-service release deployed with the CLI -------------
    progress('soak: starting a Podman engine');
    const engine: TestEngine = await startTestEngine();
    cleanups.push(async () => {
      await removeLabelled(engine, runId);
      await engine.stop();
    });
    const agentFleet = await createFleet(baseUrl, user, 'soak-agents');
    await writeProject(join(dir, 'project'), runId);
    progress('soak: flotilla deploy of the agents\' release');
    const commit = await flotillaDeploy({ baseUrl, token: user.token, fleetSlug: `${user.username}/soak-agents`.toLowerCase(), dir, engine, timeoutMs: 10 * 60_000 });
    const release = (await api.json<{ d: { id: number }[] }>('GET', `/v7/release?$filter=${encodeURIComponent(`commit eq '${commit}'`)}&$select=id`)).d[0]!;
    const agentErrors: string[] = [];
    progress(`soak: starting ${SOAK.agents} agents (--engine podman)`);
    const agents: RunningAgent[] = await startAgents({
      baseUrl,
      fleetId: agentFleet.fleetId,
      provisioningKey: agentFleet.provisioningKey,
      count: SOAK.agents,
      dir,
      engine,
      pollIntervalMs: DEFAULT_POLL_INTERVAL_MS,
      log: (i, m) => {
        // The agents log what they do; a failure shows as an error or a failed step.
        if (/\berror\b|\bfail/i.test(m)) errors.add(`agent ${i}`, m);
        if (agentErrors.length < 20 && /\berror\b|\bfail/i.test(m)) agentErrors.push(`agent ${i}: ${m}`);
      },
    });
    cleanups.push(() => Promise.all(agents.map((a) => a.stop().catch(() => undefined))));
    await until(`${SOAK.agents} agents running release ${release.id}`, 10 * 60_000, async () => {
      const [devices, installs] = await Promise.all([
        count(api, 'device', `belongs_to__application eq ${agentFleet.fleetId} and is_running__release eq ${release.id} and is_online eq true`),
        count(api, 'image_install', `is_provided_by__release eq ${release.id} and status eq 'Running'`),
      ]);
      return devices === SOAK.agents && installs === SOAK.agents * SERVICES.length;
    });
    const agentUuids = agents.map((a) => a.config().uuid);
    const images = (
      await api.json<{ d: { image: { is_stored_at__image_location: string; content_hash: string }[] }[] }>(
        'GET',
        `/v7/image__is_part_of__release?$filter=is_part_of__release eq ${release.id}&$expand=image($select=is_stored_at__image_location,content_hash)`,
      )
    ).d.map((r) => ({ location: r.image[0]!.is_stored_at__image_location, digest: r.image[0]!.content_hash }));

    // --- the simulated devices ------------------------------------------------------------
    const simFleet = await prepareFleet(baseUrl, user);
    await api.json('POST', '/v7/application_config_variable', { application: simFleet.fleetId, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: String(SOAK.pollSeconds * 1000) });
    const rssBeforeDevicesMb = await settledRss(server.server.pid, inspectUrl);
    const rampSeconds = Math.max(5, Math.ceil(SOAK.devices / 100));
    progress(`soak: ${SOAK.devices} simulated devices, boots over ${rampSeconds} s, ${SOAK.logRate} log lines/min each, polling every ${SOAK.pollSeconds} s`);
    const sourceAddresses = Array.from({ length: SOAK.sourceAddresses }, (_, i) => `127.0.0.${i + 2}`);
    if (sourceAddresses.length > 0) progress(`soak: the simulator connects from ${sourceAddresses.join(', ')}`);
    const sim = await SimulatorProcess.start({ apiUrl: baseUrl, provisioningKey: simFleet.provisioningKey, fleetId: simFleet.fleetId, count: SOAK.devices, rampSeconds, seed: 21, link: true, logRate: SOAK.logRate, sourceAddresses });
    cleanups.push(() => sim.stop());
    const online = `is_online eq true and api_heartbeat_state eq 'online'`;
    const onlineStarted = performance.now();
    // The window starts once every device is registered and linked and the API counts them all
    // online, or at most a minute after the last link: on a starved machine some devices'
    // polls run late, and the samples then show the online count over the window.
    let allLinkedAt: number | undefined;
    await waitFor(`${SOAK.devices} devices online`, (rampSeconds + 900) * 1000, async () => {
      const s = await sim.stats();
      if (!s || s.online < SOAK.devices || s.linked < SOAK.devices) return { done: false, state: `simulator: ${s?.online ?? 0} registered, ${s?.linked ?? 0} linked` };
      allLinkedAt ??= performance.now();
      const n = await countDevices(api, simFleet.fleetId, online);
      return { done: n === SOAK.devices || performance.now() - allLinkedAt > 60_000, state: `API: ${n} online` };
    });
    const onlineSeconds = (performance.now() - onlineStarted) / 1000;
    const onlineAtStart = await countDevices(api, simFleet.fleetId, online);
    const simDevices = (await api.json<{ d: { id: number; uuid: string }[] }>('GET', `/v7/device?$filter=belongs_to__application eq ${simFleet.fleetId}&$select=id,uuid&$top=200&$orderby=id asc`)).d;

    // --- the dashboard and the pulls; the window ------------------------------------------
    const dashboard = startDashboardSessions({ baseUrl, user, simFleetId: simFleet.fleetId, simDevices, agentUuids, sessions: SOAK.sessions, terminalEveryMs: SOAK.terminalEveryMs, browser: SOAK.browser }, errors);
    cleanups.push(() => dashboard.stop());
    const pulls = startRegistryPulls({ baseUrl, user, images, everyMs: SOAK.pullEveryMs, concurrency: SOAK.pullConcurrency }, errors);
    cleanups.push(() => pulls.stop());
    await sleep(10_000); // Sessions signed in, subscriptions open.

    progress(`soak: all registered and linked, ${onlineAtStart} online by the API after ${onlineSeconds.toFixed(0)} s; measuring for ${SOAK.minutes} min`);
    await eventLoopDelayMs(inspectUrl); // Installs the histogram; the first window starts now.
    // What is allocated from here on and still live at the end: the sampling heap profiler
    // (one sample per 64 KiB allocated on average; it lives as long as this session).
    const heap = await InspectorSession.open(inspectUrl);
    cleanups.push(async () => heap.close());
    await heap.call('HeapProfiler.enable');
    await heap.call('HeapProfiler.collectGarbage');
    await heap.call('HeapProfiler.startSampling', { samplingInterval: 65_536 });
    const liveMemory = async () => {
      await heap.call('HeapProfiler.collectGarbage');
      const m = (await heap.call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result: { value: string } };
      const usage = JSON.parse(m.result.value) as { heapUsed: number; heapTotal: number; external: number };
      const mb = (n: number) => n / 1024 / 1024;
      // heapTotal: what V8 holds for its heap (used or not); RSS beyond it and external is the
      // native side (malloc arenas, buffers being freed, code).
      return { heapUsedMb: mb(usage.heapUsed), heapTotalMb: mb(usage.heapTotal), externalMb: mb(usage.external), liveMb: mb(usage.heapUsed + usage.external), rssMb: readRssMb(server.server.pid) };
    };
    const liveAtStart = await liveMemory();
    // The CPU profile, when asked for: its own session, stopped once its seconds are up.
    let cpuProfiler: InspectorSession | undefined;
    let cpuSummary: CpuSummary | undefined;
    if (SOAK.cpuProfileSeconds > 0) {
      const session = await InspectorSession.open(inspectUrl);
      cleanups.push(async () => session.close());
      await startCpuProfile(session);
      cpuProfiler = session;
    }
    const first: SimulationStats = await sim.freshStats();
    const dashBefore = { ...dashboard.counters };
    const windowStart = performance.now();
    const samples: Sample[] = [];
    let lastCpu = await cpuSeconds(server.server.pid);
    let lastSimCpu = await cpuSeconds(sim.pid);
    let lastT = windowStart;
    let last = first;
    while (performance.now() - windowStart < SOAK.minutes * 60_000) {
      await sleep(SOAK.sampleMs);
      if (!server.server.running) throw new Error(`the server exited:\n${server.server.outputTail()}`);
      const now = performance.now();
      const cpu = await cpuSeconds(server.server.pid);
      const simCpu = await cpuSeconds(sim.pid);
      const loop = await eventLoopDelayMs(inspectUrl);
      const pg = await pgConnections(server.databaseUrl);
      last = (await sim.stats()) ?? last;
      const sample: Sample = {
        t: (now - windowStart) / 1000,
        rssMb: readRssMb(server.server.pid),
        cpuCores: (cpu - lastCpu) / ((now - lastT) / 1000),
        loopP99Ms: loop.p99,
        loopMaxMs: loop.max,
        pgConnections: pg.total,
        pgActive: pg.active,
        // A refused count (503 when the pool is saturated) is an error of the run, not its end.
        online: await countDevices(api, simFleet.fleetId, online).catch((err: unknown) => {
          errors.add('sampler', err);
          return -1;
        }),
        simulatorCpuCores: (simCpu - lastSimCpu) / ((now - lastT) / 1000),
        simulatorLoopP99Ms: last.loopDelay?.p99Ms ?? 0,
        simulatorStatsAgeS: (Date.now() - Date.parse(last.at)) / 1000,
      };
      if (cpuProfiler && sample.t >= SOAK.cpuProfileSeconds) {
        const profile = await stopCpuProfile(cpuProfiler);
        cpuProfiler = undefined;
        await mkdir(join(CPU_PROFILE_FILE, '..'), { recursive: true });
        await writeFile(CPU_PROFILE_FILE, JSON.stringify(profile));
        cpuSummary = summariseCpuProfile(profile);
      }
      if ((samples.length + 1) % SOAK.gcEverySamples === 0) sample.afterGc = await liveMemory();
      samples.push(sample);
      lastCpu = cpu;
      lastSimCpu = simCpu;
      lastT = now;
      progress(
        `  ${sample.t.toFixed(0)} s: RSS ${sample.rssMb.toFixed(0)} MB, CPU ${sample.cpuCores.toFixed(2)}, loop p99 ${sample.loopP99Ms.toFixed(0)} ms, online ${sample.online}, ` +
          `simulator CPU ${sample.simulatorCpuCores.toFixed(2)} loop p99 ${sample.simulatorLoopP99Ms.toFixed(0)} ms stats ${sample.simulatorStatsAgeS.toFixed(0)} s old, ` +
          `pg ${pg.total} (${pg.active} active), polls ${last.polls - first.polls}, logs ${(last.logs?.sent ?? 0) - (first.logs?.sent ?? 0)}, ` +
          `terminals ${dashboard.counters.terminalsServed}, pulls ${pulls.counters.pulls}, errors ${errors.count}` +
          (sample.afterGc ? `; after GC: heap ${sample.afterGc.heapUsedMb.toFixed(0)} MB (of ${sample.afterGc.heapTotalMb.toFixed(0)} held) + external ${sample.afterGc.externalMb.toFixed(0)} MB, RSS ${sample.afterGc.rssMb.toFixed(0)} MB` : ''),
      );
    }
    const end = await sim.freshStats();
    const liveAtEnd = await liveMemory();
    const profile = (await heap.call('HeapProfiler.getSamplingProfile', {}, 120_000)) as { profile: { head: ProfileNode } };
    await heap.call('HeapProfiler.stopSampling', {}, 120_000);
    const liveSites = liveAllocationSites(profile.profile.head);
    const windowSeconds = (performance.now() - windowStart) / 1000;
    const pollWindow = latencyBetween(first.pollLatency, end.pollLatency);
    // Older simulator stats files have no report histogram.
    const reportWindow = first.reportLatency && end.reportLatency ? latencyBetween(first.reportLatency, end.reportLatency) : undefined;
    const onlineAtEnd = await countDevices(api, simFleet.fleetId, online);
    const agentsOnlineAtEnd = await count(api, 'device', `belongs_to__application eq ${agentFleet.fleetId} and is_online eq true`);
    const linksAtEnd = end.linked + agentsOnlineAtEnd;
    await dashboard.stop();
    await pulls.stop();
    const rssWithDevicesMb = await settledRss(server.server.pid, inspectUrl);
    const database = await databaseSizes(server.databaseUrl);
    const d = dashboard.counters;

    // Errors over the whole run (registration included), from the simulator's own counters too.
    const simErrors = { registerErrors: end.registerErrors, pollErrors: end.pollErrors, reportErrors: end.reportErrors, logDropped: end.logs?.dropped ?? 0, logStreamFailures: end.logs?.failures ?? 0, logRateLimited: end.logs?.rateLimited ?? 0 };
    const simErrorCount = Object.values(simErrors).reduce((a, b) => a + b, 0);
    const totalErrors = errors.count + simErrorCount;

    const secondHalf = samples.filter((s) => s.t >= windowSeconds / 2);
    const rssSlopeMbPerMin = slope(secondHalf.map((s) => ({ x: s.t / 60, y: s.rssMb })));
    const gcPoints = [{ t: 0, m: liveAtStart }, ...samples.filter((s) => s.afterGc).map((s) => ({ t: s.t, m: s.afterGc! })), { t: windowSeconds, m: liveAtEnd }];
    const gcSecondHalf = gcPoints.filter((p) => p.t >= windowSeconds / 2);
    const liveSlopeMbPerMin = slope(gcSecondHalf.map((p) => ({ x: p.t / 60, y: p.m.liveMb })));
    const rssAfterGcSlopeMbPerMin = slope(gcSecondHalf.map((p) => ({ x: p.t / 60, y: p.m.rssMb })));
    const max = (xs: number[]) => Math.max(0, ...xs);
    const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    const cores = availableParallelism();
    const serverCpu = mean(samples.map((s) => s.cpuCores));
    // A device waits interval × (1 + POLL_JITTER × random) between polls: on average
    // (1 + POLL_JITTER / 2) × interval.
    const pollsDuePerSecond = SOAK.devices / (SOAK.pollSeconds * (1 + POLL_JITTER / 2));
    const figures = {
      startedAt: startedAt.toISOString(),
      machine: { cores, ramGb: Math.round(totalmem() / 1024 ** 3), node: process.version, loadBefore, loadAfter: loadavg() },
      config: { ...SOAK },
      onlineSeconds,
      windowSeconds,
      devices: { simulated: SOAK.devices, onlineAtStart, onlineAtEnd, agents: SOAK.agents, agentsOnlineAtEnd },
      statePollsPerSecond: (end.polls - first.polls) / windowSeconds,
      stateReportsPerSecond: (end.reports - first.reports) / windowSeconds,
      logLinesPerSecond: ((end.logs?.sent ?? 0) - (first.logs?.sent ?? 0)) / windowSeconds,
      logLinesToSubscribers: d.logLines - dashBefore.logLines,
      terminals: { opened: d.terminalsOpened, served: d.terminalsServed },
      dashboard: { sessions: d.sessions, rounds: d.rounds, requests: d.requests, requestsPerSecond: (d.requests - dashBefore.requests) / windowSeconds, variableEdits: d.variableEdits, logSubscriptions: d.logSubscriptions, browserPages: d.browserPages },
      cloudLinks: { count: linksAtEnd, perCore: linksAtEnd / cores, perServerCoreUsed: serverCpu > 0 ? linksAtEnd / serverCpu : null },
      rssPerConnectedDeviceKb: ((rssWithDevicesMb - rssBeforeDevicesMb) * 1024) / (SOAK.devices),
      rssBeforeDevicesMb,
      rssWithDevicesMb,
      database,
      registry: { pulls: pulls.counters.pulls, bursts: pulls.counters.bursts, pullsPerSecond: pulls.counters.pullSeconds > 0 ? pulls.counters.pulls / pulls.counters.pullSeconds : 0, mbPulled: pulls.counters.bytes / 1024 / 1024 },
      server: {
        cpuCoresMean: serverCpu,
        cpuCoresMax: max(samples.map((s) => s.cpuCores)),
        rssMbFirst: samples[0]?.rssMb ?? 0,
        rssMbLast: samples.at(-1)?.rssMb ?? 0,
        rssMbMax: max(samples.map((s) => s.rssMb)),
        rssSlopeSecondHalfMbPerMin: rssSlopeMbPerMin,
        live: {
          atStart: liveAtStart,
          atEnd: liveAtEnd,
          slopeSecondHalfMbPerMin: liveSlopeMbPerMin,
          rssAfterGcSlopeSecondHalfMbPerMin: rssAfterGcSlopeMbPerMin,
          /** Allocated during the window and live at its end, by allocating function (sampling heap profiler). */
          sites: liveSites,
        },
        // Flat: not growing. Live memory that shrinks over the second half (caches settling
        // after the ramp) is no leak; the first 5,000-device run of 2026-11-29 was failed for
        // -1.08 MB/min by the old |slope| test.
        memoryFlat: liveSlopeMbPerMin < SOAK.flatMbPerMin,
        eventLoopDelayP99MsMax: max(samples.map((s) => s.loopP99Ms)),
        eventLoopDelayP99MsMean: mean(samples.map((s) => s.loopP99Ms)),
        eventLoopDelayMaxMs: max(samples.map((s) => s.loopMaxMs)),
        pgConnectionsMax: max(samples.map((s) => s.pgConnections)),
        pgConnectionsActiveMax: max(samples.map((s) => s.pgActive)),
        warnings: serverWarnings,
        /** Where the server's time went over the CPU profile (SOAK_CPU_PROFILE_SECONDS). */
        cpuProfile: cpuSummary,
      },
      simulator: { cpuCoresMean: mean(samples.map((s) => s.simulatorCpuCores)), loopDelayP99MsMax: max(samples.map((s) => s.simulatorLoopP99Ms)), onlineMin: Math.min(...samples.map((s) => s.online)) },
      polls: {
        p50Ms: latencyPercentile(pollWindow, 50),
        p99Ms: latencyPercentile(pollWindow, 99),
        maxMs: pollWindow.maxMs,
        /** Polls made / polls due: under 0.9 the machine did not carry the load. */
        scheduleShare: (end.polls - first.polls) / windowSeconds / pollsDuePerSecond,
      },
      reports: reportWindow ? { p50Ms: latencyPercentile(reportWindow, 50), p99Ms: latencyPercentile(reportWindow, 99), maxMs: reportWindow.maxMs } : null,
      errors: { total: totalErrors, byKind: { ...errors.byKind, ...simErrors }, samples: errors.samples, serverErrors, agentErrors, simulatorFailures: sim.failures },
      samples,
    };
    await mkdir(join(RESULTS_FILE, '..'), { recursive: true });
    await writeFile(RESULTS_FILE, `${JSON.stringify(figures, null, 2)}\n`);

    const f = (n: number, digits = 1) => n.toFixed(digits);
    const keptSchedule = figures.polls.scheduleShare >= SOAK.minScheduleShare;
    const lines = [
      `Flotilla soak ${figures.startedAt}: ${SOAK.devices} simulated devices + ${SOAK.agents} real agents + ${d.sessions} dashboard sessions, ${f(windowSeconds / 60)} min measured (from ${f(onlineSeconds, 0)} s after the simulator started, ${onlineAtStart} online by the API then)`,
      `machine: ${cores} cores, ${figures.machine.ramGb} GB, node ${process.version}; load ${loadBefore.map((x) => f(x, 2)).join(' ')} → ${figures.machine.loadAfter.map((x) => f(x, 2)).join(' ')}`,
      `state polls/s        ${f(figures.statePollsPerSecond)}   (${f(figures.polls.scheduleShare * 100, 0)} % of the ${f(pollsDuePerSecond)}/s due; poll interval ${SOAK.pollSeconds} s; p50 ${f(figures.polls.p50Ms)} ms, p99 ${f(figures.polls.p99Ms)} ms, max ${f(figures.polls.maxMs, 0)} ms)`,
      ...(keptSchedule
        ? []
        : [
            `NOT CARRIED: the devices made ${f(figures.polls.scheduleShare * 100, 0)} % of the polls due. The simulator, the agents, the browser and the server share this machine's ${cores} cores; when they need more than it has, polls queue, devices miss their heartbeat and go offline. The figures do not describe the server at this size: run fewer devices (SOAK_DEVICES) or on a larger machine.`,
          ]),
      `state reports/s      ${f(figures.stateReportsPerSecond)}${figures.reports ? `   (p50 ${f(figures.reports.p50Ms)} ms, p99 ${f(figures.reports.p99Ms)} ms, max ${f(figures.reports.maxMs, 0)} ms, timed by the simulator)` : ''}`,
      `log lines/s          ${f(figures.logLinesPerSecond)}   (${SOAK.logRate}/min/device offered; ${figures.logLinesToSubscribers} lines to ${d.logSubscriptions} live subscriptions)`,
      `terminal sessions    ${d.terminalsOpened} opened, ${d.terminalsServed} served`,
      `dashboard            ${d.rounds} rounds, ${f(figures.dashboard.requestsPerSecond)} requests/s, ${d.variableEdits} variable edits, ${d.browserPages} Chromium pages`,
      `cloud links          ${linksAtEnd} (${f(figures.cloudLinks.perCore, 0)} per core of the machine; server used ${f(serverCpu, 2)} cores on average)`,
      `RSS per device       ${f(figures.rssPerConnectedDeviceKb)} KB (after GC: ${f(rssBeforeDevicesMb, 0)} MB before the simulated devices, ${f(rssWithDevicesMb, 0)} MB with them: link, log stream, caches)`,
      `registry pulls/s     ${f(figures.registry.pullsPerSecond, 2)}   (${pulls.counters.pulls} pulls in ${pulls.counters.bursts} bursts of ${SOAK.pullConcurrency}, ${f(figures.registry.mbPulled, 0)} MB, digests checked)`,
      `server RSS           ${f(figures.server.rssMbFirst, 0)} → ${f(figures.server.rssMbLast, 0)} MB (max ${f(figures.server.rssMbMax, 0)}); slope over the second half ${f(rssSlopeMbPerMin, 2)} MB/min (${f(rssAfterGcSlopeMbPerMin, 2)} MB/min right after full collections)`,
      `live memory          ${f(liveAtStart.liveMb, 0)} → ${f(liveAtEnd.liveMb, 0)} MB after full collections (heap ${f(liveAtStart.heapUsedMb, 0)} → ${f(liveAtEnd.heapUsedMb, 0)}, external ${f(liveAtStart.externalMb, 0)} → ${f(liveAtEnd.externalMb, 0)}); slope over the second half ${f(liveSlopeMbPerMin, 2)} MB/min: ${figures.server.memoryFlat ? 'flat' : 'NOT flat'} (growth < ${SOAK.flatMbPerMin} MB/min)`,
      `live since the start ${liveSites.slice(0, 6).map((x) => `${f(x.mb, 1)} MB ${x.site}${x.via && x.via !== x.site ? ` (via ${x.via})` : ''}`).join('; ') || 'nothing sampled'}`,
      `event-loop delay     p99 mean ${f(figures.server.eventLoopDelayP99MsMean)} ms, worst 10-s p99 ${f(figures.server.eventLoopDelayP99MsMax)} ms, max ${f(figures.server.eventLoopDelayMaxMs)} ms`,
      `PostgreSQL           ≤ ${figures.server.pgConnectionsMax} connections (≤ ${figures.server.pgConnectionsActiveMax} active); database ${f(database.databaseMb, 0)} MB: device ${f(database.deviceMb, 1)} MB for ${database.devices} rows, device_log ${f(database.deviceLogMb, 1)} MB for ${database.logLines} lines`,
      `devices online       ${onlineAtEnd}/${SOAK.devices} simulated at the end (lowest sample ${figures.simulator.onlineMin}), ${agentsOnlineAtEnd}/${SOAK.agents} agents; simulator CPU ${f(figures.simulator.cpuCoresMean, 2)} cores, worst loop p99 ${f(figures.simulator.loopDelayP99MsMax, 0)} ms`,
      ...(cpuSummary
        ? [
            `server CPU profile   ${f(cpuSummary.seconds, 0)} s (${CPU_PROFILE_FILE}): ${cpuSummary.groups.map((g) => `${g.group} ${f(g.share * 100)} %`).join(', ')}`,
            ...cpuSummary.top.slice(0, 15).map((x) => `  ${f(x.share * 100)} % ${x.where}`),
          ]
        : []),
      `errors               ${totalErrors}${totalErrors > 0 ? `: ${JSON.stringify(figures.errors.byKind)}` : ''}`,
      ...errors.samples.slice(0, 10).map((s) => `  ${s}`),
      ...(simErrorCount > 0 ? [`simulator failures (first ${sim.failures.length}):`, ...sim.failures.map((l) => `  ${l}`), `simulator output (last lines):`, sim.outputTail()] : []),
      `written to ${RESULTS_FILE}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const ok = totalErrors === 0 && keptSchedule && onlineAtEnd === SOAK.devices && agentsOnlineAtEnd === SOAK.agents && figures.server.memoryFlat;
    return ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // fetch's own message is only "fetch failed": the reason (ECONNREFUSED, EADDRNOTAVAIL, …) is its cause.
    const cause = err instanceof Error && err.cause !== undefined ? `\ncaused by: ${err.cause instanceof Error ? (err.cause.stack ?? err.cause.message) : String(err.cause)}` : '';
    process.stderr.write(`soak failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}${cause}\n`);
    process.exit(2);
  },
);
