// Scale scenarios of issue 5: (j) 10,000 simulated devices in one `flotilla-agent simulate`
// process, all online, poll p99; (k) server RSS per cloud link with 5,000 links; (l) the
// dashboard's fleet device table over 100,000 devices. Each phase creates its own fleet.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latencyBetween, latencyPercentile, type LatencySnapshot, type SimulationStats } from '@flotilla/agent';
import { Api, firstRow } from './api.js';
import type { ChildServer } from './child.js';
import { fmt, row, type Row } from './evaluate.js';
import { attempt, skipped, type Outcome } from './outcome.js';
import { progress } from './phases.js';
import { readRssMb } from './rss.js';
import { collectGarbage, memoryUsageMb } from './inspector.js';
import { REPO_ROOT, type FlotillaServer } from './servers.js';
import { seedDevicesSql, type SeededUser } from './seed.js';
import { percentile, sleep } from './stats.js';

const DEVICE_TYPE_SLUG = 'raspberrypi4-64';
const verbose = process.env.BENCH_VERBOSE === '1';

export const SCALE_TARGETS = {
  simPollP99Ms: 50,
  linkRssKb: 20,
  tableP99Ms: 100,
} as const;

export interface ScaleConfig {
  quick: boolean;
  simDevices: number;
  /** Seconds the simulator spreads its boots over (registration concurrency stays bounded by its socket pool). */
  simRampSeconds: number;
  /** Poll interval set on the simulated fleets (the simulator's default, 60 s; 15 s in quick runs). */
  pollIntervalMs: number;
  /** Seconds of the poll-latency window once every device is online. */
  simWindowSeconds: number;
  linkDevices: number;
  tableDevices: number;
  tableSamples: number;
}

export function loadScaleConfig(quick: boolean, env: NodeJS.ProcessEnv = process.env): ScaleConfig {
  const count = (name: string, full: number, short: number) => (Number(env[name]) > 0 ? Math.floor(Number(env[name])) : quick ? short : full);
  const simDevices = count('BENCH_SIM_DEVICES', 10_000, 1_000);
  return {
    quick,
    simDevices,
    // ~100 boots a second: below what the server registers on this machine, so nothing times out.
    simRampSeconds: Math.max(5, Math.ceil(simDevices / 100)),
    pollIntervalMs: quick ? 15_000 : 60_000,
    // A poll interval and a half, so every device polls at least once in the window.
    simWindowSeconds: quick ? 25 : 90,
    linkDevices: count('BENCH_LINK_DEVICES', 5_000, 1_000),
    tableDevices: count('BENCH_TABLE_DEVICES', 100_000, 100_000),
    tableSamples: quick ? 40 : 200,
  };
}

// --- the simulator as a child process ---------------------------------------------------

export interface SimulatorOptions {
  apiUrl: string;
  provisioningKey: string;
  fleetId: number;
  count: number;
  rampSeconds: number;
  seed: number;
  link: boolean;
  /** Service log lines per minute per device (`--log-rate`); unset: `--no-logs`. */
  logRate?: number;
  /** `--source-addresses`: local addresses the devices connect from (spread i mod n). */
  sourceAddresses?: string[];
}

/** `flotilla-agent simulate` in its own process, read through its --stats-file. */
export class SimulatorProcess {
  private tail: string[] = [];
  /** The first 30 failure lines (`<time> poll-failed: <cause>`…): the tail scrolls them away in a long run. */
  readonly failures: string[] = [];
  private exit: string | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exit = signal ? `killed by ${signal}` : `exit code ${code}`;
        resolve();
      }),
    );
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        if (verbose) process.stderr.write(chunk.replace(/^(?=.)/gm, '[simulate] '));
        const lines = chunk.split('\n').filter((l) => l !== '');
        for (const l of lines) if (this.failures.length < 30 && /\b(poll|report|register)-failed: /.test(l)) this.failures.push(l);
        this.tail.push(...lines);
        if (this.tail.length > 50) this.tail.splice(0, this.tail.length - 50);
      });
    }
  }

  static async start(o: SimulatorOptions): Promise<SimulatorProcess> {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-bench-sim-'));
    const args = [
      // Profiling: e.g. BENCH_SIM_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' or '--trace-gc'.
      ...(process.env.BENCH_SIM_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      'packages/agent/bin/flotilla-agent.mjs',
      'simulate',
      ...['--api', o.apiUrl, `--provisioning-key=${o.provisioningKey}`, '--count', String(o.count)],
      ...['--fleet', String(o.fleetId), '--device-type', DEVICE_TYPE_SLUG, '--seed', String(o.seed)],
      ...['--ramp', String(o.rampSeconds), '--stats-file', join(dir, 'stats.json'), '--quiet'],
      ...(o.link ? [] : ['--no-link']),
      // Polls and links only unless asked, as measured before device logs existed; (q) measures the logs.
      ...(o.logRate === undefined ? ['--no-logs'] : ['--log-rate', String(o.logRate)]),
      ...(o.sourceAddresses?.length ? ['--source-addresses', o.sourceAddresses.join(',')] : []),
    ];
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    return new SimulatorProcess(child, dir);
  }

  /** The last lines the simulator printed. */
  outputTail(): string {
    return this.tail.join('\n');
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the simulator did not start');
    return this.child.pid;
  }

  /** The latest stats the simulator wrote, or null before its first write. */
  async stats(): Promise<SimulationStats | null> {
    if (this.exit) throw new Error(`the simulator exited (${this.exit}):\n${this.tail.join('\n')}`);
    const text = await readFile(join(this.dir, 'stats.json'), 'utf8').catch(() => null);
    return text === null ? null : (JSON.parse(text) as SimulationStats);
  }

  /** Stats written after now (the file is rewritten every 5 s). */
  async freshStats(): Promise<SimulationStats> {
    const since = Date.now();
    for (;;) {
      const s = await this.stats();
      if (s && Date.parse(s.at) >= since) return s;
      await sleep(500);
    }
  }

  async stop(): Promise<string> {
    if (!this.exit) {
      this.child.kill('SIGTERM');
      const done = await Promise.race([this.exited.then(() => true), sleep(30_000).then(() => false)]);
      if (!done) this.child.kill('SIGKILL');
      await this.exited;
    }
    await rm(this.dir, { recursive: true, force: true });
    return this.exit ?? 'stopped';
  }
}

/** A fleet of the bench user with a provisioning key. */
export async function createFleet(baseUrl: string, user: SeededUser, name: string, pollIntervalMs?: number) {
  const api = new Api(baseUrl, user.token);
  const deviceType = firstRow(
    await api.json<{ d?: { id: number }[] }>('GET', `/v7/device_type?$filter=${encodeURIComponent(`slug eq '${DEVICE_TYPE_SLUG}'`)}&$select=id`),
    `device type ${DEVICE_TYPE_SLUG}`,
  );
  const fleet = await api.json<{ id: number }>('POST', '/v7/application', {
    app_name: name,
    organization: user.organizationId,
    is_for__device_type: deviceType.id,
  });
  const provisioningKey = await api.json<string>('POST', '/api-key/v2/', {
    actorType: 'application',
    actorTypeId: fleet.id,
    roles: ['provisioning-api-key'],
    name: `${name}-key`,
  });
  if (pollIntervalMs !== undefined) {
    // The interval both sides go by: the devices poll on it, the server's heartbeat sweep judges them on it.
    await api.json('POST', '/v7/application_config_variable', {
      application: fleet.id,
      name: 'BALENA_SUPERVISOR_POLL_INTERVAL',
      value: String(pollIntervalMs),
    });
  }
  return { api, fleetId: fleet.id, deviceTypeId: deviceType.id, provisioningKey };
}

/** `$count` of the fleet's devices matching `extra` (an OData condition), through the API. */
export async function countDevices(api: Api, fleetId: number, extra: string): Promise<number> {
  const filter = encodeURIComponent(`belongs_to__application eq ${fleetId} and ${extra}`);
  return (await api.json<{ d: number }>('GET', `/v7/device/$count?$filter=${filter}`)).d;
}

/** Waits until `done` holds, printing progress every 10 s; throws after `timeoutMs`. */
export async function waitFor(what: string, timeoutMs: number, check: () => Promise<{ done: boolean; state: string }>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastPrint = 0;
  for (;;) {
    const { done, state } = await check();
    if (done) return;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${Math.round(timeoutMs / 1000)} s (${state})`);
    if (Date.now() - lastPrint > 10_000) {
      progress(`  waiting for ${what}: ${state}`);
      lastPrint = Date.now();
    }
    await sleep(2_000);
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

// --- (j) 10,000 simulated devices -------------------------------------------------------

export interface SimFigures {
  devices: number;
  /** Seconds from the simulator's start until every device was online (simulator and API). */
  onlineSeconds: number;
  windowSeconds: number;
  polls: number;
  pollErrors: number;
  reportErrors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU use over the window, in cores. */
  serverCpu: number;
  simulatorCpu: number;
  serverRssMb: number;
  simulatorRssMb: number;
  /** Devices online by the API's count at the window's end (is_online and heartbeat online). */
  onlineAtEnd: number;
  /** The simulator's event-loop delay over the window: highest 5-second p99, and maximum. */
  simulatorLoopDelayP99Ms: number;
  simulatorLoopDelayMaxMs: number;
}

export async function measureSimulation(server: ChildServer, config: ScaleConfig, user: SeededUser): Promise<SimFigures> {
  const n = config.simDevices;
  const { api, fleetId, provisioningKey } = await createFleet(server.baseUrl, user, 'bench-simulate', config.pollIntervalMs);
  progress(`flotilla (j): ${n} simulated devices in one simulate process, boots spread over ${config.simRampSeconds} s`);
  const started = performance.now();
  const sim = await SimulatorProcess.start({ apiUrl: server.baseUrl, provisioningKey, fleetId, count: n, rampSeconds: config.simRampSeconds, seed: 1, link: true });
  try {
    const online = `is_online eq true and api_heartbeat_state eq 'online'`;
    await waitFor(`${n} devices online`, (config.simRampSeconds + 600) * 1000, async () => {
      const s = await sim.stats();
      if (!s || s.online < n || s.linked < n) {
        return { done: false, state: `simulator: ${s?.online ?? 0} registered, ${s?.linked ?? 0} linked, ${s?.registerErrors ?? 0} registration errors` };
      }
      const count = await countDevices(api, fleetId, online);
      return { done: count === n, state: `API: ${count} online with an online heartbeat` };
    });
    const onlineSeconds = (performance.now() - started) / 1000;
    progress(`  all ${n} online after ${onlineSeconds.toFixed(0)} s; measuring poll latency over ${config.simWindowSeconds} s`);

    // Let the registration burst's reports and first polls pass before the window.
    await sleep(config.quick ? 5_000 : 30_000);
    const before = await sim.freshStats();
    const cpuBefore = [await cpuSeconds(server.pid), await cpuSeconds(sim.pid)] as const;
    const windowStart = performance.now();
    let loopP99Ms = 0;
    let loopMaxMs = 0;
    let after = before;
    while (performance.now() - windowStart < config.simWindowSeconds * 1000) {
      await sleep(4_000);
      after = await sim.freshStats();
      loopP99Ms = Math.max(loopP99Ms, after.loopDelay?.p99Ms ?? 0);
      loopMaxMs = Math.max(loopMaxMs, after.loopDelay?.maxMs ?? 0);
    }
    const windowSeconds = (performance.now() - windowStart) / 1000;
    const cpuAfter = [await cpuSeconds(server.pid), await cpuSeconds(sim.pid)] as const;
    const window: LatencySnapshot = latencyBetween(before.pollLatency, after.pollLatency);
    const onlineAtEnd = await countDevices(api, fleetId, online);
    return {
      devices: n,
      onlineSeconds,
      windowSeconds,
      polls: window.count,
      pollErrors: after.pollErrors - before.pollErrors,
      reportErrors: after.reportErrors - before.reportErrors,
      p50Ms: latencyPercentile(window, 50),
      p99Ms: latencyPercentile(window, 99),
      maxMs: window.maxMs,
      serverCpu: (cpuAfter[0] - cpuBefore[0]) / windowSeconds,
      simulatorCpu: (cpuAfter[1] - cpuBefore[1]) / windowSeconds,
      serverRssMb: readRssMb(server.pid),
      simulatorRssMb: readRssMb(sim.pid),
      onlineAtEnd,
      simulatorLoopDelayP99Ms: loopP99Ms,
      simulatorLoopDelayMaxMs: loopMaxMs,
    };
  } finally {
    progress(`  simulator stopped (${await sim.stop()})`);
  }
}

// --- (k) server memory per cloud link ---------------------------------------------------

export interface LinkFigures {
  links: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  perLinkKb: number;
  /** The V8 heap and external memory (Buffers) per link, from process.memoryUsage() after the same collections. */
  heapPerLinkKb: number;
  externalPerLinkKb: number;
}

/**
 * The same devices (same seed) twice: first without links until all are registered and have
 * polled, then the simulator is stopped and the server's RSS read (before); then with links
 * until all are online by the API, and the RSS read again (after). Each reading follows a
 * full garbage collection (through the server's inspector), so garbage does not count.
 */
export async function measureLinks(server: ChildServer, inspectUrl: string | undefined, config: ScaleConfig, user: SeededUser): Promise<LinkFigures> {
  if (inspectUrl === undefined) throw new Error('the server was started without its inspector (startFlotilla({ inspect: true }))');
  const n = config.linkDevices;
  const { api, fleetId, provisioningKey } = await createFleet(server.baseUrl, user, 'bench-links', config.pollIntervalMs);
  const rampSeconds = Math.max(5, Math.ceil(n / 100));
  const base = { apiUrl: server.baseUrl, provisioningKey, fleetId, count: n, rampSeconds, seed: 2 };

  progress(`flotilla (k): registering ${n} devices without cloud links`);
  const plain = await SimulatorProcess.start({ ...base, link: false });
  try {
    await waitFor(`${n} devices registered`, (rampSeconds + 600) * 1000, async () => {
      const s = await sim(plain);
      return { done: s.online >= n && s.polls >= n, state: `${s.online} registered, ${s.polls} polls` };
    });
  } finally {
    await plain.stop();
  }
  await sleep(5_000);
  const rssBeforeMb = await settledRss(server.pid, inspectUrl);
  const memBefore = await memoryUsageMb(inspectUrl);

  progress(`flotilla (k): the same ${n} devices with their cloud links`);
  const linked = await SimulatorProcess.start({ ...base, link: true });
  try {
    await waitFor(`${n} cloud links`, (rampSeconds + 600) * 1000, async () => {
      const s = await sim(linked);
      if (s.linked < n) return { done: false, state: `simulator: ${s.linked} linked` };
      const count = await countDevices(api, fleetId, 'is_online eq true');
      return { done: count === n, state: `API: ${count} with is_online` };
    });
    await sleep(5_000);
    const rssAfterMb = await settledRss(server.pid, inspectUrl);
    const memAfter = await memoryUsageMb(inspectUrl);
    const s = await sim(linked);
    if (s.linked < n) throw new Error(`only ${s.linked} of ${n} links were up when the RSS was read`);
    const perLink = (before: number, after: number) => ((after - before) * 1024) / n;
    return {
      links: n,
      rssBeforeMb,
      rssAfterMb,
      perLinkKb: perLink(rssBeforeMb, rssAfterMb),
      heapPerLinkKb: perLink(memBefore.heapUsed, memAfter.heapUsed),
      externalPerLinkKb: perLink(memBefore.external, memAfter.external),
    };
  } finally {
    await linked.stop();
  }
}

async function sim(p: SimulatorProcess): Promise<SimulationStats> {
  return (await p.stats()) ?? ({ online: 0, linked: 0, polls: 0 } as SimulationStats);
}

/** RSS after a full collection (twice: weak references and finalizers free more on the second). */
export async function settledRss(pid: number, inspectUrl: string): Promise<number> {
  await collectGarbage(inspectUrl);
  await sleep(500);
  await collectGarbage(inspectUrl);
  await sleep(1_000);
  return readRssMb(pid);
}

// --- (l) the fleet device table over 100,000 devices ------------------------------------

export interface TableFigures {
  devices: number;
  seedSeconds: number;
  samples: number;
  page: { p50Ms: number; p99Ms: number };
  count: { p50Ms: number; p99Ms: number };
  statusCounts: { p50Ms: number; p99Ms: number };
}

/**
 * The requests the dashboard's device table sends (packages/web/src/features/devices/api/
 * get-fleet-devices.ts, as balena-sdk's pine writes them): the first page (select, two
 * expands, filter by fleet, order by last_connectivity_event desc, id desc, top 50), the
 * matching $count, and the per-status $counts (seven at once, as the page sends them).
 */
export function tableRequests(fleetId: number) {
  const fleet = `belongs_to__application eq ${fleetId}`;
  const page =
    '/v7/device?' +
    [
      '$select=id,uuid,device_name,overall_status,last_connectivity_event,is_online,os_version,os_variant,ip_address',
      '$expand=is_of__device_type($select=slug,name),is_running__release($select=id,commit,raw_version)',
      `$filter=${encodeURIComponent(fleet)}`,
      '$orderby=last_connectivity_event%20desc,id%20desc',
      '$top=50',
      '$skip=0',
    ].join('&');
  const count = `/v7/device/$count?$filter=${encodeURIComponent(fleet)}`;
  const statuses = ['configuring', 'operational', 'inactive', 'post-provisioning', 'updating', 'reduced-functionality', 'disconnected'];
  const statusCounts = statuses.map(
    (s) => `/v7/device/$count?$filter=${encodeURIComponent(`(${fleet}) and (overall_status eq '${s}')`)}`,
  );
  return { page, count, statusCounts };
}

export async function measureTable(server: ChildServer, databaseUrl: string, config: ScaleConfig, user: SeededUser): Promise<TableFigures> {
  const { api, fleetId, deviceTypeId } = await createFleet(server.baseUrl, user, 'bench-table');
  progress(`flotilla (l): seeding ${config.tableDevices} devices into one fleet with SQL`);
  const seedStarted = performance.now();
  const inserted = await seedDevicesSql(databaseUrl, { id: fleetId, deviceTypeId }, config.tableDevices);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const req = tableRequests(fleetId);

  // The answers must be right, or their timing means nothing.
  const first = await api.json<{ d?: { last_connectivity_event: string | null }[] }>('GET', req.page);
  if (first.d?.length !== 50) throw new Error(`the first page answered ${first.d?.length ?? 'no'} rows, expected 50`);
  const total = (await api.json<{ d: number }>('GET', req.count)).d;
  if (total !== inserted) throw new Error(`$count answered ${total}, expected ${inserted}`);
  const perStatus = await Promise.all(req.statusCounts.map(async (p) => (await api.json<{ d: number }>('GET', p)).d));
  if (perStatus.reduce((a, b) => a + b, 0) !== inserted) throw new Error(`the per-status counts (${perStatus.join(', ')}) do not add up to ${inserted}`);

  progress(`flotilla (l): the device table's requests over ${inserted} devices, ${config.tableSamples} sequential samples each`);
  const time = async (run: () => Promise<unknown>) => {
    for (let i = 0; i < 5; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < config.tableSamples; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
  };
  const page = await time(() => api.text('GET', req.page));
  const count = await time(() => api.text('GET', req.count));
  const statusCounts = await time(() => Promise.all(req.statusCounts.map((p) => api.text('GET', p))));
  return { devices: inserted, seedSeconds, samples: config.tableSamples, page, count, statusCounts };
}

// --- report rows ------------------------------------------------------------------------

export interface ScaleFigures {
  sim?: Outcome<SimFigures>;
  links?: Outcome<LinkFigures>;
  table?: Outcome<TableFigures>;
}

export async function measureScale(
  { server, databaseUrl, inspectUrl }: FlotillaServer,
  config: ScaleConfig,
  seeded: Outcome<SeededUser>,
  phases: { sim: boolean; links: boolean; table: boolean },
): Promise<ScaleFigures> {
  const withUser = <T>(run: (user: SeededUser) => Promise<T>): Promise<Outcome<T>> =>
    seeded.ok ? attempt(() => run(seeded.value)) : Promise.resolve(skipped<T>(`seeding failed: ${seeded.error}`));
  const figures: ScaleFigures = {};
  // The table first: its 100,000 rows sit in another fleet and do not slow the others' polls.
  if (phases.table) figures.table = await withUser((u) => measureTable(server, databaseUrl, config, u));
  if (phases.links) figures.links = await withUser((u) => measureLinks(server, inspectUrl, config, u));
  if (phases.sim) figures.sim = await withUser((u) => measureSimulation(server, config, u));
  return figures;
}

export function evaluateScale(f: ScaleFigures): Row[] {
  const rows: Row[] = [];
  if (f.sim) {
    rows.push(
      row('j', `simulate: poll p99, devices all online`, f.sim, (s) => ({
        value: `${fmt(s.p99Ms, 1)} ms`,
        ratio: `${s.onlineAtEnd}/${s.devices} online`,
        target: `< ${SCALE_TARGETS.simPollP99Ms} ms, all online`,
        pass: s.p99Ms < SCALE_TARGETS.simPollP99Ms && s.onlineAtEnd === s.devices && s.pollErrors === 0,
        note:
          `${s.devices} devices in one process, all online after ${fmt(s.onlineSeconds, 0)} s; ` +
          `${s.polls} polls in ${fmt(s.windowSeconds, 0)} s (${s.pollErrors} failed, ${s.reportErrors} failed reports), ` +
          `p50 ${fmt(s.p50Ms, 1)} ms, max ${fmt(s.maxMs, 0)} ms; CPU server ${fmt(s.serverCpu, 2)} / simulator ${fmt(s.simulatorCpu, 2)} cores; ` +
          `RSS server ${fmt(s.serverRssMb, 0)} MB / simulator ${fmt(s.simulatorRssMb, 0)} MB; ` +
          `simulator event-loop delay p99 ${fmt(s.simulatorLoopDelayP99Ms, 0)} ms, max ${fmt(s.simulatorLoopDelayMaxMs, 0)} ms`,
      })),
    );
  }
  if (f.links) {
    rows.push(
      row('k', `server RSS per cloud link`, f.links, (l) => ({
        value: `${fmt(l.perLinkKb, 1)} KB`,
        ratio: `${l.links} links`,
        target: `≤ ${SCALE_TARGETS.linkRssKb} KB`,
        pass: l.perLinkKb <= SCALE_TARGETS.linkRssKb,
        note:
          `RSS after a full GC: ${fmt(l.rssBeforeMb, 1)} MB with the devices registered, ${fmt(l.rssAfterMb, 1)} MB with ${l.links} links up; ` +
          `of which V8 heap ${fmt(l.heapPerLinkKb, 1)} KB and external ${fmt(l.externalPerLinkKb, 1)} KB per link`,
      })),
    );
  }
  if (f.table) {
    const judged = (pick: (t: TableFigures) => { p50Ms: number; p99Ms: number }) => (t: TableFigures) => {
      const m = pick(t);
      return {
        value: `${fmt(m.p99Ms, 1)} ms`,
        ratio: `p50 ${fmt(m.p50Ms, 1)} ms`,
        target: `< ${SCALE_TARGETS.tableP99Ms} ms`,
        pass: m.p99Ms < SCALE_TARGETS.tableP99Ms,
        note: undefined as string | undefined,
      };
    };
    const n = f.table.ok ? f.table.value.devices : 0;
    rows.push(
      row('l', `device table first page p99, ${n} devices`, f.table, (t) => ({
        ...judged((x) => x.page)(t),
        note: `${t.samples} sequential samples each; ${t.devices} rows seeded with SQL in ${fmt(t.seedSeconds, 1)} s`,
      })),
      row('l', `device table $count p99`, f.table, judged((x) => x.count)),
      row('l', `device table per-status counts (7 at once) p99`, f.table, judged((x) => x.statusCounts)),
    );
  }
  return rows;
}
