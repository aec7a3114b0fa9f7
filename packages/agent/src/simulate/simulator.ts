import { seededRandom, type Random } from '../core/backoff.js';
import { Device, type DeviceEvent } from '../core/device.js';
import { Scheduler } from '../core/scheduler.js';
import type { TargetRelease } from '../core/target-state.js';
import { DeviceApi } from '../net/device-api.js';
import { HttpClient, parseJson } from '../net/http-client.js';
import { REPORTED_SUPERVISOR_VERSION } from '../host/run-agent.js';
import { drift, driftMetrics, initialDrift, simulatedIdentity, simulatedLocation, simulatedNetwork, simulatedServiceStatus } from './simulated-host.js';

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
  maxSockets?: number;
  log?(message: string): void;
  onEvent?(event: DeviceEvent, device: Device): void;
}

export interface Simulation {
  devices: Device[];
  fleetId: number;
  deviceType: string;
  stats(): SimulationStats;
  stop(): Promise<void>;
}

export interface SimulationStats {
  devices: number;
  online: number;
  linked: number;
  updating: number;
  polls: number;
  pollErrors: number;
  reports: number;
  reportErrors: number;
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
  const http = new HttpClient(o.api, { maxSockets: o.maxSockets ?? 256 });
  const { fleetId, deviceType } = await resolveFleet(http, o.provisioningKey, o.fleetId, o.deviceType);
  const random: Random = o.seed === undefined ? Math.random : seededRandom(o.seed);
  const scheduler = new Scheduler();
  const log = o.log ?? ((m: string) => console.log(m));
  const releases = new Map<string, TargetRelease>();
  const stats: SimulationStats = { devices: o.count, online: 0, linked: 0, updating: 0, polls: 0, pollErrors: 0, reports: 0, reportErrors: 0 };
  const env = {
    api: new DeviceApi(http),
    scheduler,
    random,
    log: (d: Device, m: string) => log(`[${d.uuid.slice(0, 7)}] ${m}`),
    onEvent: (d: Device, e: DeviceEvent) => {
      if (e.type === 'poll') stats.polls++;
      else if (e.type === 'poll-failed') stats.pollErrors++;
      else if (e.type === 'report') stats.reports++;
      else if (e.type === 'report-failed') stats.reportErrors++;
      o.onEvent?.(e, d);
    },
    internRelease: (r: TargetRelease) => {
      const known = releases.get(r.commit);
      if (known && known.services.length === r.services.length) return known;
      releases.set(r.commit, r);
      return r;
    },
  };
  const between = ([lo, hi]: [number, number]) => lo + random() * (hi - lo);
  const devices: Device[] = [];
  const ramp = o.rampMs ?? Math.min(30_000, o.count * 2);
  for (let i = 0; i < o.count; i++) {
    const { uuid, deviceApiKey } = simulatedIdentity(i, o.seed, random);
    const net = simulatedNetwork(i);
    let metrics = initialDrift(random);
    const device = new Device(env, {
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
      ipAddress: net.ipAddress,
      macAddress: net.macAddress,
      isUndervolted: random() < (o.undervoltedShare ?? 0.05),
      ...(o.locations ? simulatedLocation(random) : {}),
      sampleMetrics: () => {
        metrics = drift(metrics, random);
        return driftMetrics(metrics);
      },
      isLocked: () => false,
      settledServiceStatus: () => simulatedServiceStatus(random),
      rebootOfflineMs: () => between(o.rebootOfflineMs ?? [3_000, 8_000]),
      onShutdown: () => log(`[${uuid.slice(0, 7)}] shut down; it stays offline until the simulation restarts`),
    });
    devices.push(device);
    device.start(o.count === 1 ? 0 : Math.floor((ramp * i) / o.count));
  }
  return {
    devices,
    fleetId,
    deviceType,
    stats() {
      let online = 0;
      let linked = 0;
      let updating = 0;
      for (const d of devices) {
        if (d.phase === 'online') online++;
        if (d.linkUp) linked++;
        if (d.plan !== null) updating++;
      }
      return { ...stats, online, linked, updating };
    },
    async stop() {
      for (const d of devices) d.stop();
      scheduler.stop();
      http.close();
    },
  };
}
