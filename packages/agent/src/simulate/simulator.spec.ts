import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      if (stats && stats.online === 5 && stats.pollLatency.count >= 5) break;
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
    expect(stats!.loopDelay).toBeDefined();
  });
});
