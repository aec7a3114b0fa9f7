import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { latencyPercentile } from './latency-stats.js';
import { startSimulation, type Simulation, type SimulationStats } from './simulator.js';

/** A stand-in for the device API: registers anyone, answers every poll 304 and every report 200. */
function fakeApi(): Promise<{ server: Server; url: string; polls: () => number }> {
  let polls = 0;
  let nextId = 1;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/device/register') {
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: nextId++ }));
      } else if (req.method === 'GET' && req.url?.startsWith('/device/v3/')) {
        polls++;
        res.writeHead(304).end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, polls: () => polls })),
  );
}

describe('simulate --stats-file', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('writes the counters and the poll latency of every device to the stats file', async () => {
    const api = await fakeApi();
    cleanup.push(() => new Promise((r) => api.server.close(r)));
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-sim-stats-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const statsFile = join(dir, 'stats.json');

    const sim: Simulation = await startSimulation({
      api: api.url,
      provisioningKey: 'key',
      count: 5,
      fleetId: 1,
      deviceType: 'raspberrypi4-64',
      seed: 3,
      pollIntervalMs: 1_000,
      rampMs: 50,
      link: false,
      statsFile,
      statsIntervalMs: 100,
      log: () => {},
    });
    cleanup.push(() => sim.stop());

    let stats: SimulationStats | null = null;
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const text = await readFile(statsFile, 'utf8').catch(() => null);
      stats = text === null ? null : (JSON.parse(text) as SimulationStats);
      if (stats && stats.online === 5 && stats.pollLatency.count >= 5 && stats.reportLatency.count >= 5) break;
    }
    expect(stats).not.toBeNull();
    expect(stats!.devices).toBe(5);
    expect(stats!.online).toBe(5);
    expect(stats!.linked).toBe(0);
    expect(stats!.pollErrors).toBe(0);
    // Every successful poll the server saw is in the histogram (none lost, none invented).
    expect(stats!.pollLatency.count).toBe(stats!.polls);
    expect(stats!.polls).toBeGreaterThanOrEqual(5);
    expect(stats!.polls).toBeLessThanOrEqual(api.polls());
    expect(latencyPercentile(stats!.pollLatency, 99)).toBeGreaterThan(0);
    // Every successful report is timed too (each device's first report comes right after it starts).
    expect(stats!.reportLatency.count).toBe(stats!.reports);
    expect(stats!.reports).toBeGreaterThanOrEqual(5);
    expect(latencyPercentile(stats!.reportLatency, 99)).toBeGreaterThan(0);
    expect(stats!.loopDelay).toBeDefined();
  });
});

describe('simulate --source-addresses', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  // Every 127.x.y.z is loopback on Linux, where the tests run (elsewhere an address must be configured first).
  it('connects each device from its address: link and log stream by device, the poll pool from the second', async () => {
    const seen = { link: new Map<string, Set<string>>(), logs: new Map<string, Set<string>>(), polls: new Set<string>() };
    const note = (map: Map<string, Set<string>>, uuid: string, from: string | undefined) => {
      const set = map.get(uuid) ?? new Set<string>();
      set.add(from ?? '?');
      map.set(uuid, set);
    };
    let nextId = 1;
    const server = createServer((req, res) => {
      const from = req.socket.remoteAddress;
      const logStream = /^\/device\/v2\/([0-9a-f]{32})\/log-stream/.exec(req.url ?? '');
      if (logStream) note(seen.logs, logStream[1]!, from);
      if (req.method === 'GET' && req.url?.startsWith('/device/v3/')) seen.polls.add(from ?? '?');
      req.resume();
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/device/register') {
          res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: nextId++ }));
        } else if (req.method === 'GET' && req.url?.startsWith('/device/v3/')) {
          // A release to run: its service is what writes the log lines.
          const uuid = /^\/device\/v3\/([0-9a-f]{32})\/state/.exec(req.url)![1]!;
          const apps = { 'app-1': { id: 1, name: 'Fleet', class: 'fleet', releases: { abc: { id: 5, services: { main: { id: 1, image_id: 2, image: 'img', environment: {} } } } } } };
          res.writeHead(200, { 'content-type': 'application/json', etag: '"1"' }).end(JSON.stringify({ [uuid]: { name: 'sim', config: {}, apps } }));
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
      });
    });
    const wss = new WebSocketServer({ server, path: '/device/v1/link' });
    wss.on('connection', (socket, req) => {
      // The device is named by its key: the simulator's keys are per device, the uuid is not in the URL.
      note(seen.link, req.headers.authorization ?? '?', req.socket.remoteAddress);
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.close(r);
    }));

    const sources = ['127.0.0.2', '127.0.0.3'];
    const sim = await startSimulation({
      api: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      provisioningKey: 'key',
      count: 4,
      fleetId: 1,
      deviceType: 'raspberrypi4-64',
      seed: 5,
      pollIntervalMs: 1_000,
      rampMs: 20,
      logRate: 600,
      logs: { flushMs: 50 },
      downloadMs: [10, 20],
      applyMs: [10, 20],
      sourceAddresses: sources,
      log: () => {},
    });
    cleanup.push(() => sim.stop());
    const done = () => seen.link.size === 4 && seen.logs.size === 4 && sim.devices.every((d) => d.linkUp);
    for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(seen.link.size).toBe(4);
    expect(seen.logs.size).toBe(4);
    // Device i connects from address i mod 2, its link and its log stream alike.
    sim.devices.forEach((d, i) => {
      expect([...seen.link.get(`Bearer ${d.opts.deviceApiKey}`)!]).toEqual([sources[i % 2]]);
      expect([...seen.logs.get(d.uuid)!]).toEqual([sources[i % 2]]);
    });
    // Polls have a pool of their own, from the second address.
    expect([...seen.polls]).toEqual(['127.0.0.3']);
  }, 20_000);
});

describe('simulate: configuration and environment (issue 16)', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('records what each device applied (configuration, environment), mimics the reboot a will_reboot variable needs, and writes it to the applied file', async () => {
    let nextId = 1;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const state = /^\/device\/v3\/([0-9a-f]{32})\/state/.exec(req.url ?? '');
        if (req.method === 'POST' && req.url === '/device/register') {
          res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: nextId++ }));
        } else if (req.method === 'GET' && req.url?.startsWith('/config/vars')) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ configVarSchema: { properties: { BALENA_HOST_CONFIG_gpu_mem: { will_reboot: true } } } }));
        } else if (req.method === 'GET' && state) {
          const body = {
            [state[1]!]: {
              name: 'sim',
              config: { BALENA_HOST_CONFIG_gpu_mem: '128', RESIN_SUPERVISOR_POLL_INTERVAL: '1000' },
              apps: { 'app-1': { id: 1, name: 'Fleet', class: 'fleet', releases: { abc: { id: 5, services: { main: { id: 1, image_id: 2, image: 'img', environment: { GREETING: 'hello' } } } } } } },
            },
          };
          res.writeHead(200, { 'content-type': 'application/json', etag: '"1"' }).end(JSON.stringify(body));
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => server.close(r)));
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-sim-applied-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const appliedFile = join(dir, 'applied.json');
    const sim = await startSimulation({
      api: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      provisioningKey: 'key',
      count: 2,
      fleetId: 1,
      deviceType: 'raspberrypi4-64',
      seed: 4,
      rampMs: 10,
      link: false,
      logs: false,
      downloadMs: [10, 20],
      applyMs: [10, 20],
      rebootOfflineMs: [50, 60],
      appliedFile,
      statsIntervalMs: 100,
      log: () => {},
    });
    cleanup.push(() => sim.stop());
    const done = () => Object.values(sim.applied()).every((a) => a.configReboots === 1 && a.environment.main?.GREETING === 'hello') && sim.devices.every((d) => d.phase === 'online');
    for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
    const applied = sim.applied();
    expect(Object.keys(applied)).toHaveLength(2);
    for (const a of Object.values(applied)) {
      expect(a.config).toEqual({ BALENA_HOST_CONFIG_gpu_mem: '128', RESIN_SUPERVISOR_POLL_INTERVAL: '1000' });
      expect(a.hostConfig).toEqual({ BALENA_HOST_CONFIG_gpu_mem: '128' });
      expect(a.environment).toEqual({ main: { GREETING: 'hello' } });
      // One reboot for the configuration, not one per poll.
      expect(a.configReboots).toBe(1);
    }
    await new Promise((r) => setTimeout(r, 250));
    const written = JSON.parse(await readFile(appliedFile, 'utf8')) as Record<string, { config: Record<string, string> }>;
    expect(Object.values(written).map((a) => a.config.BALENA_HOST_CONFIG_gpu_mem)).toEqual(['128', '128']);
  });
});
