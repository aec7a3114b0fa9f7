// Issue 15's log throughput (q): lines per second from 1,000 simulated devices (the agent's
// own log-stream transport, one gzip NDJSON stream per device) through the server to one
// reader subscribed to every device (`GET /device/v2/{uuid}/logs?stream=1`) and to storage
// (each device's history read back at the end), as a ratio of the same lines published
// straight to an in-process bus (the fan-out alone). No line may be lost: the simulator's
// sent count, the reader's count and the stored count must agree.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { startSimulation } from '@flotilla/agent';
import { Api, firstRow, runPool } from './api.js';
import { fmt, row, type Row } from './evaluate.js';
import type { Outcome } from './outcome.js';
import { progress } from './phases.js';
import type { SeededUser } from './seed.js';
import { sleep } from './stats.js';

const DEVICE_TYPE_SLUG = 'raspberrypi4-64';

export const LOGS_TARGETS = { linesPerSecond: 20_000 } as const;

export interface LogsConfig {
  devices: number;
  /** Service lines per minute per simulated device. */
  ratePerMin: number;
  windowSeconds: number;
}

export function loadLogsConfig(quick: boolean, env: NodeJS.ProcessEnv = process.env): LogsConfig {
  const devices = Number(env.BENCH_LOG_DEVICES) > 0 ? Math.floor(Number(env.BENCH_LOG_DEVICES)) : 1_000;
  const ratePerMin = Number(env.BENCH_LOG_RATE) > 0 ? Number(env.BENCH_LOG_RATE) : 1_500;
  return { devices, ratePerMin, windowSeconds: quick ? 10 : 20 };
}

export interface LogsFigures {
  devices: number;
  offeredPerSecond: number;
  /** Lines the reader received per second while the devices were sending. */
  windowPerSecond: number;
  /** Every line sent, from the devices' first line to the reader holding the last, per second. */
  readerPerSecond: number;
  sent: number;
  received: number;
  stored: number;
  dropped: number;
  rateLimited: number;
  /** The same number of lines through an in-process bus (publish → one subscriber per device), per second. */
  busPerSecond: number;
}

/** A fleet with a provisioning key and a one-service release the devices run. */
export async function prepareFleet(baseUrl: string, user: SeededUser) {
  const api = new Api(baseUrl, user.token);
  const deviceType = firstRow(
    await api.json<{ d?: { id: number }[] }>('GET', `/v7/device_type?$filter=${encodeURIComponent(`slug eq '${DEVICE_TYPE_SLUG}'`)}&$select=id`),
    `device type ${DEVICE_TYPE_SLUG}`,
  );
  const name = `bench-logs-${randomBytes(3).toString('hex')}`;
  const fleet = await api.json<{ id: number }>('POST', '/v7/application', { app_name: name, organization: user.organizationId, is_for__device_type: deviceType.id });
  const provisioningKey = await api.json<string>('POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet.id, roles: ['provisioning-api-key'], name: `${name}-key` });
  const commit = randomBytes(16).toString('hex');
  const release = await api.json<{ id: number }>('POST', '/v7/release', {
    belongs_to__application: fleet.id,
    commit,
    status: 'running',
    source: 'cloud',
    composition: { version: '2.1', services: { main: {} } },
  });
  const service = await api.json<{ id: number }>('POST', '/v7/service', { application: fleet.id, service_name: 'main' });
  const image = await api.json<{ id: number }>('POST', '/v7/image', { is_a_build_of__service: service.id, status: 'running' });
  await api.json('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release.id });
  await api.text('PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: `sha256:${randomBytes(32).toString('hex')}` });
  await api.text('PATCH', `/v7/release(${release.id})`, { status: 'success' });
  await api.text('PATCH', `/v7/application(${fleet.id})`, { should_be_running__release: release.id, should_track_latest_release: false });
  return { fleetId: fleet.id, provisioningKey };
}

/** One reader on every device's live log (`?stream=1`, history from the start), counting lines as they arrive. */
class Reader {
  received = 0;
  private readonly reqs: http.ClientRequest[] = [];
  private readonly agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** Subscribes; a 503 (the server's database pool busy) is retried after 1 s, up to 10 times. */
  async subscribe(uuid: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.subscribeOnce(uuid);
      } catch (err) {
        if (attempt >= 10 || !String(err).includes('answered 503')) throw err;
        this.retries++;
        await sleep(1_000);
      }
    }
  }

  retries = 0;

  private subscribeOnce(uuid: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = new URL(`/device/v2/${uuid}/logs?stream=1&count=all`, this.baseUrl);
      const req = http.get(url, { agent: this.agent, headers: { authorization: `Bearer ${this.token}` } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET ${url.pathname}?stream=1 answered ${res.statusCode}`));
          return;
        }
        let rest = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const parts = (rest + chunk).split('\n');
          rest = parts.pop()!;
          for (const p of parts) if (p.trim() !== '') this.received++;
        });
        res.on('error', () => undefined);
        resolve();
      });
      req.on('error', reject);
      this.reqs.push(req);
    });
  }

  close(): void {
    for (const r of this.reqs) r.destroy();
    this.agent.destroy();
  }
}

/** The fan-out alone: the same lines, published to one channel per device with one subscriber each, JSON-copied as the server's in-process bus does. */
async function busBaseline(devices: number, lines: number): Promise<number> {
  const channels = new Map<string, (m: unknown) => void>();
  let got = 0;
  for (let i = 0; i < devices; i++) channels.set(`device-logs:${i}`, () => got++);
  const line = { message: 'GET /api/status 200 12ms', timestamp: Date.now(), createdAt: Date.now(), isSystem: false, isStdErr: false, serviceId: 1 };
  const started = performance.now();
  const publish = (channel: string, message: unknown) => {
    const handler = channels.get(channel);
    const text = JSON.stringify(message);
    if (handler) setImmediate(() => handler(JSON.parse(text)));
  };
  for (let i = 0; i < lines; i++) {
    publish(`device-logs:${i % devices}`, [line]);
    if (i % 10_000 === 0) await new Promise((r) => setImmediate(r));
  }
  while (got < lines) await new Promise((r) => setImmediate(r));
  return lines / ((performance.now() - started) / 1000);
}

export async function measureLogs(baseUrl: string, user: SeededUser, config: LogsConfig): Promise<LogsFigures> {
  const { fleetId, provisioningKey } = await prepareFleet(baseUrl, user);
  progress(`logs: ${config.devices} simulated devices, ${config.ratePerMin} lines/min each`);
  const sim = await startSimulation({
    api: baseUrl,
    provisioningKey,
    count: config.devices,
    fleetId,
    deviceType: DEVICE_TYPE_SLUG,
    seed: 15,
    pollIntervalMs: 60_000,
    rampMs: Math.min(10_000, config.devices * 5),
    downloadMs: [300, 600],
    applyMs: [100, 200],
    link: false,
    // Quiet until every device runs the release: registration and the update are not measured.
    logRate: 0,
    logs: { flushMs: 100, graceMs: 200, maxQueueLines: 2_000 },
    log: () => {},
  });
  const reader = new Reader(baseUrl, user.token);
  try {
    // Every device registered and running its release before the window.
    const deadline = Date.now() + 300_000;
    while (!sim.devices.every((d) => d.phase === 'online' && d.running !== null)) {
      if (Date.now() > deadline) throw new Error(`devices not running after 300 s (${sim.devices.filter((d) => d.running !== null).length}/${config.devices})`);
      await sleep(250);
    }
    await runPool(sim.devices.length, 10, (i) => reader.subscribe(sim.devices[i]!.uuid));
    sim.logs!.setRate(config.ratePerMin);
    const started = performance.now();
    const before = reader.received;
    await sleep(config.windowSeconds * 1_000);
    const windowPerSecond = (reader.received - before) / ((performance.now() - started) / 1000);
    progress(`logs: ${config.windowSeconds} s of lines sent (${fmt(windowPerSecond, 0)} lines/s reached the reader meanwhile); stopping the devices, draining`);
    await sim.stop();
    const final = sim.stats().logs!;
    // The figure: every line sent, from the first to the reader having the last, over that time.
    const sentLines = final.sent + (final.dropped > 0 ? 1 : 0);
    const drainDeadline = Date.now() + 180_000;
    while (reader.received < sentLines && Date.now() < drainDeadline) await sleep(100);
    const readerPerSecond = (reader.received - before) / ((performance.now() - started) / 1000);
    let stored = 0;
    const api = new Api(baseUrl, user.token);
    await runPool(sim.devices.length, 20, async (i) => {
      const lines = await api.json<unknown[]>('GET', `/device/v2/${sim.devices[i]!.uuid}/logs?count=all`);
      stored += lines.length;
    });
    const busPerSecond = await busBaseline(config.devices, Math.max(100_000, reader.received));
    return {
      windowPerSecond,
      devices: config.devices,
      offeredPerSecond: (config.devices * config.ratePerMin) / 60,
      readerPerSecond,
      sent: final.sent,
      received: reader.received,
      stored,
      dropped: final.dropped,
      rateLimited: final.rateLimited,
      busPerSecond,
    };
  } finally {
    reader.close();
    await sim.stop().catch(() => undefined);
  }
}

export function evaluateLogs(outcome: Outcome<LogsFigures>): Row[] {
  return [
    row('q', 'log lines/s, 1,000 simulated devices → server → subscribed reader + storage', outcome, (f) => {
      const lost = f.sent - Math.min(f.received, f.stored);
      return {
        value: `${fmt(f.readerPerSecond, 0)} lines/s`,
        ratio: `${fmt((f.readerPerSecond / f.busPerSecond) * 100, 2)} % of the bus alone`,
        target: `≥ ${LOGS_TARGETS.linesPerSecond} lines/s, none lost`,
        pass: f.readerPerSecond >= LOGS_TARGETS.linesPerSecond && lost <= 0 && f.dropped === 0,
        note:
          `${f.devices} devices offering ${fmt(f.offeredPerSecond, 0)} lines/s; ${fmt(f.windowPerSecond, 0)} lines/s reached the reader while they sent; sent ${f.sent}, reader ${f.received}, stored ${f.stored}, ` +
          `dropped in the agents' queues ${f.dropped}, 429s ${f.rateLimited}; in-process bus alone ${fmt(f.busPerSecond, 0)} lines/s`,
      };
    }),
  ];
}
