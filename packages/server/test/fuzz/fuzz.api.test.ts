import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistryServer, type RegistryServer } from '../support/registry.js';
import { formatSummary, runFuzz } from './runner.js';
import { otherOrganizationDigest, seedWorld, type SeededWorld } from './world.js';
import { runWsFuzz } from './ws-fuzz.js';

/**
 * Issue 21, item 3: fuzzing (docs/fuzzing.md). Generated and mutated `/v7` URLs and bodies,
 * device API, registry and token requests over real HTTP against the whole server on a
 * seeded database, then WebSocket frames. The oracle: no 5xx, every 4xx with a message in
 * its API's error shape, no request slower than 2 s (the issue's bound), `/ping` answering
 * throughout, and the other organization's rows unchanged.
 *
 * In `npm test` this is a bounded sample (a fixed seed and one random seed, printed);
 * `npm run fuzz` runs ≥ 100,000 requests (FUZZ_COUNT, FUZZ_SEED, FUZZ_INDEX, FUZZ_WS).
 */

const FIXED_SEED = 21_003;
const full = process.env.FUZZ_COUNT !== undefined;
const count = Number(process.env.FUZZ_COUNT ?? 2_500);
const seeds = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : full ? [randomInt(1, 2 ** 31)] : [FIXED_SEED, randomInt(1, 2 ** 31)];
const indexes = process.env.FUZZ_INDEX ? process.env.FUZZ_INDEX.split(',').map(Number) : undefined;
const wsCount = Number(process.env.FUZZ_WS ?? (full ? Math.max(200, Math.round(count / 200)) : 40));
// A generous per-test budget: the bound under test is per request (SLOW_MS), not this one.
const budgetMs = full ? 4 * 60 * 60 * 1000 : 120_000;

let s: RegistryServer;
let seeded: SeededWorld;
let before: Record<string, string>;

beforeAll(async () => {
  s = await startRegistryServer();
  seeded = await seedWorld(s.app, s.db, s.url);
  before = await otherOrganizationDigest(s.db, seeded.other);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('fuzzing the HTTP APIs and WebSocket frames', () => {
  for (const seed of seeds) {
    it(`seed ${seed}: ${indexes ? `requests ${indexes.join(',')}` : `${count} requests`}: no 5xx, every 4xx with a message, none slower than 2 s, /ping answering`, { timeout: budgetMs }, async () => {
      console.log(`fuzz: seed ${seed} (reproduce with FUZZ_SEED=${seed})`);
      const summary = await runFuzz({ baseUrl: s.url, seed, count, world: seeded.world, concurrency: 4, ...(indexes ? { indexes } : {}), ...(process.env.FUZZ_TRACE ? { trace: process.env.FUZZ_TRACE } : {}), log: (l) => console.log(l) });
      const ws = indexes ? undefined : await runWsFuzz(s.url, seeded.world, seed, wsCount, 8);
      console.log(formatSummary(summary, ws));
      if (ws) console.log(`  websocket close codes: ${JSON.stringify(ws.closeCodes)}${ws.failures.length ? `\n  ${ws.failures.join('\n  ')}` : ''}`);
      expect(summary.failures.map((f) => `${f.reason}: FUZZ_SEED=${f.seed} FUZZ_INDEX=${f.index} ${f.curl.slice(0, 400)}`)).toEqual([]);
      expect(summary.requests).toBe(indexes?.length ?? count);
      expect(summary.ping.checks).toBeGreaterThan(0);
      expect(summary.ping.failed).toBe(0);
      expect(ws?.failures ?? []).toEqual([]);
      // After the frames the server still answers.
      expect((await fetch(`${s.url}/ping`)).status).toBe(200);
    });
  }

  it("the other organization's rows are exactly as before the run", async () => {
    const after = await otherOrganizationDigest(s.db, seeded.other);
    expect(Object.keys(after).length).toBeGreaterThan(5);
    expect(after).toEqual(before);
  });
});
