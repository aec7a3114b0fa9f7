import http from 'node:http';
import https from 'node:https';
import type { DeviceLogInput } from '@flotilla/model';
import type { Random } from '../core/backoff.js';
import type { Device, DeviceEvent } from '../core/device.js';
import { LogStream, type LogStreamStats } from '../core/log-stream.js';
import { systemLine, systemLinesFor, systemMessage } from '../core/log-system.js';
import type { Scheduler, Task } from '../core/scheduler.js';

/**
 * The simulator's device logs: each virtual device that runs a release writes plausible
 * service lines (its services' ids, now and then a stderr line) at `ratePerMin` lines a
 * minute on average, and system lines as its (simulated) update, restarts and reboots go,
 * through the same `LogStream` a real agent uses: one gzip NDJSON stream per device.
 * Generation runs on the simulation's shared scheduler.
 */

export interface SimulatedLogsOptions {
  apiEndpoint: string;
  scheduler: Scheduler;
  random: Random;
  /** Average service lines per minute per device (0 = system lines only). */
  ratePerMin: number;
  flushMs?: number;
  graceMs?: number;
  maxQueueLines?: number;
  /** Local addresses to spread the streams over (device i: address i mod n); default: the system's choice. */
  sourceAddresses?: string[];
  log?(message: string): void;
}

/** Default `--log-rate`: a quiet device (a line every 30 s on average). */
export const DEFAULT_SIM_LOG_RATE = 2;

const MESSAGES: readonly ((r: Random) => string)[] = [
  (r) => `GET /api/status 200 ${1 + Math.floor(r() * 40)}ms`,
  (r) => `POST /api/readings 201 ${2 + Math.floor(r() * 80)}ms`,
  (r) => `sensor temperature=${(18 + r() * 12).toFixed(1)}C humidity=${(30 + r() * 40).toFixed(0)}%`,
  (r) => `processed job ${Math.floor(r() * 100_000)} in ${5 + Math.floor(r() * 300)}ms`,
  (r) => `mqtt: published ${1 + Math.floor(r() * 20)} message(s) to telemetry/${Math.floor(r() * 8)}`,
  (r) => `cache hit ratio ${(0.6 + r() * 0.4).toFixed(2)}`,
  () => 'heartbeat ok',
];
const ERRORS: readonly ((r: Random) => string)[] = [
  (r) => `warning: connection to broker lost, retrying in ${1 + Math.floor(r() * 10)}s`,
  () => 'error: upstream timed out after 5000ms',
  (r) => `warning: queue depth ${100 + Math.floor(r() * 900)} above threshold`,
];

interface DeviceLogs {
  stream: LogStream;
  task: Task | null;
  phase: string | null;
}

export class SimulatedLogs {
  private readonly devices = new Map<Device, DeviceLogs>();
  /** One agent per source address (one agent without them). */
  private readonly agents: http.Agent[];
  private stopped = false;
  /** Service lines generated (not counting system lines). */
  generated = 0;

  private readonly o: SimulatedLogsOptions;

  constructor(options: SimulatedLogsOptions) {
    this.o = { ...options };
    // Log streams are long-lived: their own sockets, never the pollers' keep-alive pool.
    const secure = options.apiEndpoint.startsWith('https:');
    const locals = options.sourceAddresses?.length ? options.sourceAddresses : [undefined];
    this.agents = locals.map((localAddress) => {
      const o = { keepAlive: false, ...(localAddress !== undefined ? { localAddress } : {}) };
      return secure ? new https.Agent(o) : new http.Agent(o);
    });
  }

  /** Starts a device's log (its stream opens with its first line). */
  add(device: Device): void {
    const stream = new LogStream({
      apiEndpoint: this.o.apiEndpoint,
      uuid: device.uuid,
      deviceApiKey: device.opts.deviceApiKey,
      scheduler: this.o.scheduler,
      agent: this.agents[this.devices.size % this.agents.length]!,
      // Thousands of gzip streams in one process: small windows.
      windowBits: 11,
      memLevel: 4,
      maxQueueLines: this.o.maxQueueLines ?? 500,
      // A device with a provisioning key registers first: its key is refused until then.
      enabled: device.deviceId !== undefined && device.opts.provisioningKey === undefined,
      ...(this.o.flushMs !== undefined ? { flushMs: this.o.flushMs } : {}),
      ...(this.o.graceMs !== undefined ? { graceMs: this.o.graceMs } : {}),
      ...(this.o.log ? { log: this.o.log } : {}),
    });
    const state: DeviceLogs = { stream, task: null, phase: null };
    this.devices.set(device, state);
    if (this.o.ratePerMin > 0) this.schedule(device, state);
  }

  /** Changes every device's service-line rate (lines per minute; 0 stops them). */
  setRate(ratePerMin: number): void {
    this.o.ratePerMin = ratePerMin;
    for (const [device, state] of this.devices) {
      this.o.scheduler.cancel(state.task);
      state.task = null;
      if (ratePerMin > 0 && !this.stopped) this.schedule(device, state);
    }
  }

  /** The system lines of a device's events (update progress, restarts, reboots). */
  onEvent(device: Device, event: DeviceEvent): void {
    const state = this.devices.get(device);
    if (!state) return;
    if (event.type === 'registered') state.stream.enable();
    const system = (message: string, isStdErr = false) => state.stream.push(systemLine(message, this.o.scheduler.now(), isStdErr));
    for (const l of systemLinesFor(event)) system(l.message, l.isStdErr);
    if (event.type === 'power' && event.kind === 'back') system(systemMessage.agentStarting());
    if (event.type === 'action' && event.status === 200 && event.action === 'restart') {
      system(systemMessage.restartingAll());
      system(systemMessage.restartedAll());
    }
    if (event.type !== 'update' || event.phase === state.phase) return;
    state.phase = event.phase;
    const next = device.installing?.services ?? [];
    const old = device.running?.services ?? [];
    if (event.phase === 'downloading') {
      for (const s of next) system(systemMessage.downloadingImage(s.image));
    } else if (event.phase === 'applying changes') {
      for (const s of next) system(systemMessage.downloadedImage(s.image));
      for (const s of old) system(systemMessage.killedService(s.name));
      for (const s of next) system(systemMessage.installingService(s.name, s.image));
    } else if (event.phase === 'done') {
      // The event comes just before the device switches to the new release.
      for (const s of device.installing?.services ?? device.running?.services ?? []) system(systemMessage.startedService(s.name, s.image));
      state.phase = null;
    }
  }

  /** Lines generated per device and tick: at high rates a tick carries several (a burst), so the scheduler is not flooded. */
  private schedule(device: Device, state: DeviceLogs): void {
    const mean = 60_000 / this.o.ratePerMin;
    const interval = Math.max(100, mean);
    const perTick = Math.max(1, Math.round(interval / mean));
    const delay = Math.round(interval * (0.5 + this.o.random()));
    state.task = this.o.scheduler.after(delay, () => {
      state.task = null;
      if (this.stopped) return;
      this.emit(device, state, perTick);
      this.schedule(device, state);
    });
  }

  private emit(device: Device, state: DeviceLogs, count: number): void {
    const services = device.running?.services;
    if (device.phase !== 'online' || !services || services.length === 0) return;
    const r = this.o.random;
    const now = this.o.scheduler.now();
    for (let i = 0; i < count; i++) {
      const service = services[Math.floor(r() * services.length)]!;
      const stderr = r() < 0.05;
      const pick = stderr ? ERRORS : MESSAGES;
      const line: DeviceLogInput = { message: pick[Math.floor(r() * pick.length)]!(r), timestamp: now, serviceId: service.id };
      if (stderr) line.isStdErr = true;
      state.stream.push(line);
      this.generated++;
    }
  }

  stats(): LogStreamStats & { generated: number } {
    const total: LogStreamStats & { generated: number } = { sent: 0, dropped: 0, connects: 0, failures: 0, rateLimited: 0, generated: this.generated };
    for (const { stream } of this.devices.values()) {
      total.sent += stream.stats.sent;
      total.dropped += stream.stats.dropped;
      total.connects += stream.stats.connects;
      total.failures += stream.stats.failures;
      total.rateLimited += stream.stats.rateLimited;
    }
    return total;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of this.devices.values()) this.o.scheduler.cancel(s.task);
    await Promise.all([...this.devices.values()].map((s) => s.stream.close()));
    for (const agent of this.agents) agent.destroy();
  }
}
