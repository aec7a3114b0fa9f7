import { rename, writeFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { seededRandom, type Random } from '../core/backoff.js';
import { Device, type DeviceEvent } from '../core/device.js';
import { Scheduler } from '../core/scheduler.js';
import type { TargetRelease, TargetService } from '../core/target-state.js';
import { DeviceApi, type StatePoll } from '../net/device-api.js';
import { HttpClient, parseJson } from '../net/http-client.js';
import { REPORTED_SUPERVISOR_VERSION } from '../host/run-agent.js';
import { LatencyHistogram, type LatencySnapshot } from './latency-stats.js';
import { DEFAULT_SIM_LOG_RATE, SimulatedLogs } from './simulated-logs.js';
import { simulatedDiagnostics } from './simulated-diagnostics.js';
import { drift, driftMetrics, initialDrift, simulatedIdentity, simulatedLocation, simulatedNetwork, simulatedServiceStatus } from './simulated-host.js';
import { simulatedTerminals } from './simulated-shell.js';
import { fetchRebootNames } from '../host/config-hook.js';
import { simulatedOsUpdate } from './simulated-os-update.js';
import { simulatedAgentUpdate } from './simulated-agent-update.js';

/**
 * `flotilla-agent simulate`: N virtual devices in one process. They share one keep-alive
 * HTTP agent and one scheduler (a heap, one timer), and per device hold only their
 * protocol state and a few numbers, so the process scales to the 10,000-device benchmark.
 */

export interface SimulateOptions {
  api: string;
  provisioningKey: string;
  count: number;
  fleetId?: number;
  deviceType?: string;
  locations?: boolean;
  seed?: number;
  /** Fixed poll interval; without it the fleet's BALENA_SUPERVISOR_POLL_INTERVAL or 60 s. */
  pollIntervalMs?: number;
  metricsIntervalMs?: number;
  /** Boots are spread over this window (default: 2 ms per device, at most 30 s). */
  rampMs?: number;
  undervoltedShare?: number;
  /** Ranges [min, max] in ms of the simulated download, apply and reboot times. */
  downloadMs?: [number, number];
  applyMs?: [number, number];
  rebootOfflineMs?: [number, number];
  /** Range [min, max] in ms of a simulated host OS update's install, before its reboot (default 8–15 s). */
  osUpdateMs?: [number, number];
  /** Duration range of a simulated agent self-update (ms; default 4–8 s). */
  agentUpdateMs?: [number, number];
  /** `--fail-agent-update`: the new agent build "fails to start" and the device stays on its version. */
  failAgentUpdate?: boolean;
  /** Sockets of each of the two shared pools: polls, and every other request (default 256 each). */
  maxSockets?: number;
  /**
   * Local addresses the devices connect from (`--source-addresses`): device i's cloud link and
   * log stream use address i mod n, the shared request pool the first, the poll pool the second. Each address has its own
   * ephemeral ports: from one address to one server Linux runs short near 14,000 connections
   * (connect takes even ports first and scans all of them once they are taken).
   */
  sourceAddresses?: string[];
  /** Open the cloud link (default true); false leaves only the HTTP protocol. */
  link?: boolean;
  /** Rewritten every `statsIntervalMs` (default 5 s) with `stats()` as JSON. */
  statsFile?: string;
  statsIntervalMs?: number;
  /** Rewritten with the stats (every `statsIntervalMs`) with what each device applied: `applied()` as JSON. */
  appliedFile?: string;
  /** Service log lines per minute per device (default 2; 0: system lines only); `logs: false` sends no logs at all. */
  logRate?: number;
  logs?: false | { flushMs?: number; graceMs?: number; maxQueueLines?: number };
  log?(message: string): void;
  onEvent?(event: DeviceEvent, device: Device): void;
}

export interface Simulation {
  devices: Device[];
  fleetId: number;
  deviceType: string;
  stats(): SimulationStats;
  /** The devices' logs (null with `logs: false`): `setRate` changes their line rate. */
  logs: SimulatedLogs | null;
  /** What each device applied (uuid → configuration, host configuration, each service's environment, config reboots). */
  applied(): Record<string, SimulatedApplied>;
  stop(): Promise<void>;
}

export type SimulatedApplied = Device['applied'];

export interface SimulationStats {
  at: string;
  devices: number;
  /** Registered and not rebooting. */
  online: number;
  linked: number;
  updating: number;
  polls: number;
  pollErrors: number;
  reports: number;
  reportErrors: number;
  registerErrors: number;
  /** Successful target-state polls (200 and 304), client-side, cumulative since start. */
  pollLatency: LatencySnapshot;
  /** Successful state reports, client-side, cumulative since start. */
  reportLatency: LatencySnapshot;
  /** This process's event-loop delay since the previous stats-file write (only with a stats file). */
  loopDelay?: { p99Ms: number; maxMs: number };
  /** Log lines: generated, sent on the devices' log streams, dropped by their queues. */
  logs?: ReturnType<SimulatedLogs['stats']>;
}

/** Times the state polls and the state reports of every device (one histogram each for the process). */
class TimedDeviceApi extends DeviceApi {
  readonly pollLatency = new LatencyHistogram();
  readonly reportLatency = new LatencyHistogram();

  override async pollState(uuid: string, deviceApiKey: string, etag: string | null): Promise<StatePoll> {
    const started = performance.now();
    const res = await super.pollState(uuid, deviceApiKey, etag);
    this.pollLatency.record(performance.now() - started);
    return res;
  }

  override async reportState(uuid: string, deviceApiKey: string, fields: Record<string, unknown>): Promise<void> {
    const started = performance.now();
    await super.reportState(uuid, deviceApiKey, fields);
    this.reportLatency.record(performance.now() - started);
  }
}

/** Finds the fleet (and its device type) a provisioning key belongs to when not given. */
export async function resolveFleet(http: HttpClient, key: string, fleetId?: number, deviceType?: string): Promise<{ fleetId: number; deviceType: string }> {
  if (fleetId !== undefined && deviceType !== undefined) return { fleetId, deviceType };
  const filter = fleetId !== undefined ? `&$filter=id eq ${fleetId}` : '';
  const res = await http.request({ method: 'GET', path: `/v7/application?$select=id&$expand=is_for__device_type($select=slug)${filter}`, token: key });
  const rows = res.status === 200 ? ((parseJson(res.text) as { d?: { id: number; is_for__device_type?: { slug: string }[] }[] })?.d ?? []) : [];
  const row = rows.length === 1 ? rows[0] : undefined;
  const id = fleetId ?? row?.id;
  const type = deviceType ?? row?.is_for__device_type?.[0]?.slug;
  if (id === undefined || type === undefined) {
    throw new Error(`cannot tell the fleet${fleetId === undefined ? ' id' : "'s device type"} from the provisioning key (HTTP ${res.status}); pass --fleet <id> and --device-type <slug>`);
  }
  return { fleetId: id, deviceType: type };
}

export async function startSimulation(o: SimulateOptions): Promise<Simulation> {
  const sources = o.sourceAddresses?.length ? o.sourceAddresses : undefined;
  const http = new HttpClient(o.api, { maxSockets: o.maxSockets ?? 256, ...(sources ? { localAddress: sources[0] } : {}) });
  const { fleetId, deviceType } = await resolveFleet(http, o.provisioningKey, o.fleetId, o.deviceType);
  const random: Random = o.seed === undefined ? Math.random : seededRandom(o.seed);
  const scheduler = new Scheduler();
  const log = o.log ?? ((m: string) => console.log(m));
  const releases = new Map<string, TargetRelease>();
  const counters = { polls: 0, pollErrors: 0, reports: 0, reportErrors: 0, registerErrors: 0 };
  // Polls on sockets of their own (see DeviceApi): from the second source address when there is one.
  const pollHttp = new HttpClient(o.api, { maxSockets: o.maxSockets ?? 256, ...(sources ? { localAddress: sources[1 % sources.length] } : {}) });
  const api = new TimedDeviceApi(http, pollHttp);
  const logs =
    o.logs === false
      ? null
      : new SimulatedLogs({ apiEndpoint: o.api, scheduler, random, ratePerMin: o.logRate ?? DEFAULT_SIM_LOG_RATE, ...(sources ? { sourceAddresses: sources } : {}), ...(o.logs ?? {}) });
  const env = {
    api,
    scheduler,
    random,
    log: (d: Device, m: string) => log(`[${d.uuid.slice(0, 7)}] ${m}`),
    onEvent: (d: Device, e: DeviceEvent) => {
      if (e.type === 'poll') counters.polls++;
      else if (e.type === 'poll-failed') counters.pollErrors++;
      else if (e.type === 'report') counters.reports++;
      else if (e.type === 'report-failed') counters.reportErrors++;
      else if (e.type === 'register-failed') counters.registerErrors++;
      logs?.onEvent(d, e);
      o.onEvent?.(e, d);
    },
    // One object per release and environment: devices without overrides of their own share it.
    internRelease: (r: TargetRelease) => {
      const key = `${r.commit} ${JSON.stringify(r.services.map((s) => [s.name, s.imageId, s.environment]))}`;
      const known = releases.get(key);
      if (known) return known;
      releases.set(key, r);
      return r;
    },
  };
  const between = ([lo, hi]: [number, number]) => lo + random() * (hi - lo);
  // Which configuration needs a reboot: asked once for every device of the simulation.
  const rebootSchema = fetchRebootNames(http, deviceType);
  const devices: Device[] = [];
  const ramp = o.rampMs ?? Math.min(30_000, o.count * 2);
  for (let i = 0; i < o.count; i++) {
    const { uuid, deviceApiKey } = simulatedIdentity(i, o.seed, random);
    const net = simulatedNetwork(i);
    let metrics = initialDrift(random);
    const undervolted = random() < (o.undervoltedShare ?? 0.05);
    let agentVersion = REPORTED_SUPERVISOR_VERSION;
    const agentUpdate = simulatedAgentUpdate(
      scheduler,
      {
        version: () => agentVersion,
        notice: (progress, state) => device.setProvisioningNotice(progress, state),
        setVersion: (v) => {
          agentVersion = v;
          device.setSupervisorVersion(v);
        },
        log: (m) => log(`[${uuid.slice(0, 7)}] ${m}`),
      },
      () => between(o.agentUpdateMs ?? [4_000, 8_000]),
      o.failAgentUpdate === true,
    );
    const device: Device = new Device(env, {
      uuid,
      deviceApiKey,
      provisioningKey: o.provisioningKey,
      applicationId: fleetId,
      deviceType,
      pollIntervalMs: o.pollIntervalMs ?? 60_000,
      pollIntervalFixed: o.pollIntervalMs !== undefined,
      metricsIntervalMs: o.metricsIntervalMs ?? 60_000,
      reportDebounceMs: 1_000,
      downloadMs: () => between(o.downloadMs ?? [5_000, 20_000]),
      applyMs: () => between(o.applyMs ?? [2_000, 5_000]),
      osVersion: 'balenaOS 6.0.10',
      osVariant: random() < 0.2 ? 'dev' : 'prod',
      supervisorVersion: REPORTED_SUPERVISOR_VERSION,
      onTarget: (t) => agentUpdate(t.agentBuild),
      ipAddress: net.ipAddress,
      macAddress: net.macAddress,
      isUndervolted: undervolted,
      ...(o.locations ? simulatedLocation(random) : {}),
      sampleMetrics: () => {
        metrics = drift(metrics, random);
        return driftMetrics(metrics);
      },
      isLocked: () => false,
      settledServiceStatus: () => simulatedServiceStatus(random),
      rebootOfflineMs: () => between(o.rebootOfflineMs ?? [3_000, 8_000]),
      onShutdown: () => log(`[${uuid.slice(0, 7)}] shut down; it stays offline until the simulation restarts`),
      ...(o.link === false ? { link: false } : {}),
      ...(sources ? { linkLocalAddress: sources[i % sources.length] } : {}),
      terminal: simulatedTerminals({ uuid, services: (): string[] => device.running?.services.map((sv: TargetService) => sv.name) ?? [] }),
      diagnostics: simulatedDiagnostics({ uuid, ipAddress: net.ipAddress, macAddress: net.macAddress, undervolted }, random),
      // The host configuration is "applied" by recording it (Device.applied); a will_reboot one mimics the reboot.
      applyHostConfig: () => Promise.resolve(),
      rebootSchema: () => rebootSchema,
      osUpdate: simulatedOsUpdate(scheduler, () => between(o.osUpdateMs ?? [8_000, 15_000])),
    });
    devices.push(device);
    logs?.add(device);
    device.start(o.count === 1 ? 0 : Math.floor((ramp * i) / o.count));
  }
  const stats = (): SimulationStats => {
    let online = 0;
    let linked = 0;
    let updating = 0;
    for (const d of devices) {
      if (d.phase === 'online') online++;
      if (d.linkUp) linked++;
      if (d.plan !== null) updating++;
    }
    return {
      at: new Date().toISOString(),
      devices: o.count,
      online,
      linked,
      updating,
      ...counters,
      pollLatency: api.pollLatency.snapshot(),
      reportLatency: api.reportLatency.snapshot(),
      ...(logs ? { logs: logs.stats() } : {}),
    };
  };
  const applied = (): Record<string, SimulatedApplied> => {
    const out: Record<string, SimulatedApplied> = {};
    for (const d of devices) out[d.uuid] = d.applied;
    return out;
  };
  const statsFile = o.statsFile;
  const appliedFile = o.appliedFile;
  let statsTimer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();
  // A stalled loop delays every device's poll: the stats show it next to the poll latency.
  const loop = statsFile === undefined ? null : monitorEventLoopDelay({ resolution: 10 });
  loop?.enable();
  const writeStats = () => {
    if (appliedFile !== undefined) {
      writing = writing
        .then(() => writeFile(`${appliedFile}.tmp`, JSON.stringify(applied()) + '\n'))
        .then(() => rename(`${appliedFile}.tmp`, appliedFile))
        .catch((err: unknown) => log(`could not write the applied file ${appliedFile}: ${err instanceof Error ? err.message : String(err)}`));
    }
    if (statsFile === undefined) return;
    const current: SimulationStats = stats();
    if (loop) {
      current.loopDelay = { p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 };
      loop.reset();
    }
    // Written aside then renamed, so a reader never sees half a file.
    writing = writing
      .then(() => writeFile(`${statsFile}.tmp`, JSON.stringify(current) + '\n'))
      .then(() => rename(`${statsFile}.tmp`, statsFile))
      .catch((err: unknown) => log(`could not write the stats file ${statsFile}: ${err instanceof Error ? err.message : String(err)}`));
  };
  if (statsFile !== undefined || appliedFile !== undefined) {
    writeStats();
    statsTimer = setInterval(writeStats, o.statsIntervalMs ?? 5_000);
  }
  return {
    devices,
    fleetId,
    deviceType,
    stats,
    logs,
    applied,
    async stop() {
      clearInterval(statsTimer);
      loop?.disable();
      await writing;
      for (const d of devices) d.stop();
      await logs?.stop();
      scheduler.stop();
      http.close();
    },
  };
}
