// Device-API scenarios (issue 5): N devices registered with a provisioning key, each with
// its own device key; the target-state GET (304 and 200 paths) and the state report PATCH
// rotate over them; the registration itself is timed sequentially.
import { randomBytes } from 'node:crypto';
import type { Request } from 'autocannon';
import { Api, firstRow, runPool } from './api.js';
import type { BenchConfig } from './config.js';
import type { ChildServer } from './child.js';
import { row, fmt, percentOf, TARGETS, type Row } from './evaluate.js';
import { httpLoad, type HttpLoadResult } from './http-load.js';
import type { LatencyResult } from './latency.js';
import { attempt, skipped, type Outcome } from './outcome.js';
import type { BaselineFigures } from './phases.js';
import { progress } from './phases.js';
import type { SeededUser } from './seed.js';
import { percentile } from './stats.js';

const DEVICE_TYPE_SLUG = 'raspberrypi4-64';

interface Device {
  uuid: string;
  key: string;
  etag: string;
}

export interface DeviceApiFigures {
  /** Devices the state and report phases rotate over. */
  devices: number;
  /** Connections of (f2). */
  overloadConnections: number;
  /** Seconds it took to register them (concurrently, not the latency figure). */
  registerSeconds?: number;
  /** (f) GET /device/v3/{uuid}/state with the device's current ETag. */
  state304: Outcome<HttpLoadResult>;
  /** (f2) the same 304 path with `config.overloadConnections` connections at once. */
  stateOverload: Outcome<HttpLoadResult>;
  /** (g) one pass over every device right after a fleet-wide change (each state rebuilt). */
  state200: Outcome<HttpLoadResult>;
  /** (h) PATCH /device/v3/state small reports. */
  report: Outcome<HttpLoadResult>;
  /** (i) POST /device/register, sequential. */
  register: Outcome<LatencyResult>;
}

/** Creates a fleet with `config.devices` devices and runs (f)–(i) against it; each fails on its own. */
export async function measureDeviceApi(
  server: ChildServer,
  config: BenchConfig,
  seeded: Outcome<SeededUser>,
): Promise<DeviceApiFigures> {
  const none = (reason: string): DeviceApiFigures => ({
    devices: 0,
    overloadConnections: config.overloadConnections,
    state304: skipped(reason),
    stateOverload: skipped(reason),
    state200: skipped(reason),
    report: skipped(reason),
    register: skipped(reason),
  });
  if (!seeded.ok) return none(`seeding failed: ${seeded.error}`);

  const baseUrl = server.baseUrl;
  progress(`flotilla (f–i): a device fleet, a provisioning key and ${config.devices} registered devices`);
  const started = performance.now();
  const fleet = await attempt(() => prepareFleet(baseUrl, seeded.value, config));
  if (!fleet.ok) return none(`preparing the devices failed: ${fleet.error}`);
  const { devices, fleetId, provisioningKey, user } = fleet.value;
  const registerSeconds = (performance.now() - started) / 1000;
  progress(`flotilla: ${devices.length} devices registered and polled once in ${registerSeconds.toFixed(0)} s`);

  progress(`flotilla (f): GET /device/v3/{uuid}/state, 304 path, rotating over ${devices.length} devices`);
  const state304 = await attempt(() =>
    httpLoad({
      url: baseUrl,
      connections: config.connections,
      requests: [rotating(devices, (d) => ({ method: 'GET', path: statePath(d), headers: { ...deviceAuth(d), 'if-none-match': d.etag } }))],
      warmupSeconds: config.warmupSeconds,
      measureSeconds: config.measureSeconds,
    }),
  );

  progress(`flotilla (f2): GET /device/v3/{uuid}/state, 304 path, ${config.overloadConnections} connections`);
  const stateOverload = await attempt(() =>
    httpLoad({
      url: baseUrl,
      connections: config.overloadConnections,
      requests: [rotating(devices, (d) => ({ method: 'GET', path: statePath(d), headers: { ...deviceAuth(d), 'if-none-match': d.etag } }))],
      warmupSeconds: 0,
      measureSeconds: config.measureSeconds,
    }),
  );

  progress(`flotilla (g): GET /device/v3/{uuid}/state, 200 path: one pass over ${devices.length} devices right after a fleet change`);
  const state200 = await attempt(async () => {
    // A fleet variable changes every device's target state and drops its cached copy.
    await user.json('POST', '/v7/application_environment_variable', {
      application: fleetId,
      name: 'BENCH_CHANGE',
      value: randomBytes(4).toString('hex'),
    });
    return httpLoad({
      url: baseUrl,
      connections: config.connections,
      requests: [rotating(devices, (d) => ({ method: 'GET', path: statePath(d), headers: deviceAuth(d) }))],
      warmupSeconds: 0,
      measureSeconds: 0,
      amount: devices.length,
    });
  });

  progress(`flotilla (h): PATCH /device/v3/state small reports, rotating over ${devices.length} devices`);
  let n = 0;
  const report = await attempt(() =>
    httpLoad({
      url: baseUrl,
      connections: config.connections,
      requests: [
        rotating(devices, (d) => ({
          method: 'PATCH',
          path: '/device/v3/state',
          headers: { ...deviceAuth(d), 'content-type': 'application/json' },
          body: JSON.stringify(smallReport(d, n++)),
        })),
      ],
      warmupSeconds: config.warmupSeconds,
      measureSeconds: config.measureSeconds,
    }),
  );

  progress('flotilla (i): POST /device/register latency');
  const register = await attempt(() => registerLatency(baseUrl, fleetId, provisioningKey, config));

  return { devices: devices.length, overloadConnections: config.overloadConnections, registerSeconds, state304, stateOverload, state200, report, register };
}

/** The report rows of (f)–(i), in the style of `evaluate`. */
export function evaluateDeviceApi(base: BaselineFigures, figures: DeviceApiFigures): Row[] {
  const overloadConnections = figures.overloadConnections;
  const rps = (r: HttpLoadResult, status: string) => (r.statusCodes[status] ?? 0) / r.durationSeconds;
  const others = (r: HttpLoadResult, status: string) => r.responses - (r.statusCodes[status] ?? 0) + r.timeouts + r.connectionErrors;
  const load = (status: string, target: number) => (r: HttpLoadResult) => {
    const pct = percentOf(rps(r, status), base.load.rps);
    const failures = others(r, status);
    return {
      value: `${fmt(rps(r, status), 0)} req/s`,
      ratio: `${fmt(pct, 2)} % of baseline`,
      target: `≥ ${target} %`,
      pass: pct >= target && failures === 0,
      note:
        `${figures.devices} devices, p50 ${fmt(r.latencyP50Ms, 1)} ms, p99 ${fmt(r.latencyP99Ms, 0)} ms` +
        (failures > 0 ? `; ${failures} answers other than ${status} (${describe(r.statusCodes)}, ${r.timeouts} timeouts)` : ''),
    };
  };
  return [
    row('f', `GET /device/v3/{uuid}/state 304, ${figures.devices} devices`, figures.state304, load('304', TARGETS.state304RpsPercent)),
    row('f2', `GET /device/v3/{uuid}/state 304, ${overloadConnections} connections`, figures.stateOverload, (r) => {
      const errors = others(r, '304') - r.timeouts;
      return {
        value: `${r.timeouts} timeouts, ${errors} errors`,
        ratio: `${fmt(percentOf(rps(r, '304'), base.overload.rps), 2)} % of baseline req/s`,
        target: `${TARGETS.overloadTimeouts} and ${TARGETS.overloadErrors}`,
        pass: r.timeouts <= TARGETS.overloadTimeouts && errors <= TARGETS.overloadErrors,
        note:
          `${fmt(rps(r, '304'), 0)} req/s, p99 ${fmt(r.latencyP99Ms, 0)} ms` +
          (errors > 0 ? `; ${describe(r.statusCodes)}, ${r.connectionErrors} connection errors, ${r.unknownStatus} without a status` : ''),
      };
    }),
    row('g', `GET /device/v3/{uuid}/state 200 after a change`, figures.state200, load('200', TARGETS.state200RpsPercent)),
    row('h', `PATCH /device/v3/state small reports`, figures.report, load('200', TARGETS.reportRpsPercent)),
    row('i', 'POST /device/register p50', figures.register, (r) => ({
      value: `${fmt(r.p50Ms, 1)} ms`,
      ratio: `× ${fmt(r.p50Ms / base.latency.p50Ms, 1)} baseline p50`,
      target: `≤ ${TARGETS.registerP50Ms} ms`,
      pass: r.p50Ms <= TARGETS.registerP50Ms,
      note: `sequential, ${r.samples} samples, p90 ${fmt(r.p90Ms, 1)} ms`,
    })),
  ];
}

/** A request whose every send goes to the next device in turn (shared by all connections). */
export function rotating(devices: Device[], build: (d: Device) => Request): Request {
  let next = 0;
  return {
    setupRequest: (req) => {
      const d = devices[next++ % devices.length]!;
      const r = build(d);
      return { ...req, ...r, headers: { ...req.headers, ...r.headers } };
    },
  };
}

export async function prepareFleet(baseUrl: string, seeded: SeededUser, config: BenchConfig) {
  const user = new Api(baseUrl, seeded.token);
  const deviceType = firstRow(
    await user.json<{ d?: { id: number }[] }>('GET', `/v7/device_type?$filter=${encodeURIComponent(`slug eq '${DEVICE_TYPE_SLUG}'`)}&$select=id`),
    `device type ${DEVICE_TYPE_SLUG}`,
  );
  const fleet = await user.json<{ id: number }>('POST', '/v7/application', {
    app_name: 'bench-devices',
    organization: seeded.organizationId,
    is_for__device_type: deviceType.id,
  });
  const provisioningKey = await user.json<string>('POST', '/api-key/v2/', {
    actorType: 'application',
    actorTypeId: fleet.id,
    roles: ['provisioning-api-key'],
    name: 'bench',
  });
  const provisioning = new Api(baseUrl, provisioningKey);

  const devices: Device[] = new Array<Device>(config.devices);
  await runPool(config.devices, config.seedConcurrency, async (i) => {
    const { uuid, api_key } = await provisioning.json<{ uuid: string; api_key: string }>(
      'POST',
      '/device/register',
      registerBody(fleet.id),
    );
    devices[i] = { uuid, key: api_key, etag: '' };
  });
  // A first poll of every device: its ETag for the 304 path (and every state built once).
  await runPool(devices.length, config.seedConcurrency, async (i) => {
    const d = devices[i]!;
    const res = await fetch(new URL(statePath(d), baseUrl), { headers: deviceAuth(d), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    const etag = res.headers.get('etag');
    if (res.status !== 200 || !etag) throw new Error(`GET ${statePath(d)} answered ${res.status} ${etag ?? 'without an ETag'}: ${text.slice(0, 300)}`);
    d.etag = etag;
  });
  return { devices, fleetId: fleet.id, provisioningKey, user };
}

/** Sequential registrations of fresh devices; every answer must be 201. */
async function registerLatency(baseUrl: string, fleetId: number, provisioningKey: string, config: BenchConfig): Promise<LatencyResult> {
  const times: number[] = [];
  for (let i = 0; i < config.latencyWarmup + config.latencySamples; i++) {
    const started = performance.now();
    const res = await fetch(new URL('/device/register', baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${provisioningKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(registerBody(fleetId)),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const elapsed = performance.now() - started;
    if (res.status !== 201) throw new Error(`POST /device/register answered ${res.status}: ${text.slice(0, 300)}`);
    if (i >= config.latencyWarmup) times.push(elapsed);
  }
  return {
    p50Ms: percentile(times, 50),
    p90Ms: percentile(times, 90),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    samples: times.length,
  };
}

function registerBody(application: number) {
  return {
    application,
    uuid: randomBytes(16).toString('hex'),
    device_type: DEVICE_TYPE_SLUG,
    supervisor_version: '16.0.0',
    os_version: 'balenaOS 5.0.0',
    os_variant: 'prod',
  };
}

/** What an agent sends between metric reports: its status and addresses, a couple of metrics. */
function smallReport(d: Device, n: number) {
  return {
    [d.uuid]: {
      status: 'Idle',
      update_status: 'done',
      ip_address: `10.0.${(n >> 8) & 255}.${n & 255}`,
      cpu_usage: n % 100,
      memory_usage: 200 + (n % 50),
    },
  };
}

export function statePath(d: Device): string {
  return `/device/v3/${d.uuid}/state`;
}

export function deviceAuth(d: Device): Record<string, string> {
  return { authorization: `Bearer ${d.key}` };
}

function describe(codes: Record<string, number>): string {
  return Object.entries(codes)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ') || 'none';
}
