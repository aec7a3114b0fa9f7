import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { deviceRequest, logsRequest, otherRequest, registryRequest, tokenRequest } from './api-grammar.js';
import { mutate } from './mutate.js';
import { Rng } from './prng.js';
import { clientEncode, reproduce, type FuzzRequest, type FuzzWorld } from './request.js';
import { send, type Answer } from './send.js';
import { v7Read, v7Write } from './v7-grammar.js';

/** The issue's bound: no request slower than this (measured per request over real HTTP). */
export const SLOW_MS = 2_000;

export interface Failure {
  seed: number;
  index: number;
  reason: string;
  status: number;
  ms: number;
  body: string;
  request: FuzzRequest;
  curl: string;
}

export interface Summary {
  seed: number;
  requests: number;
  seconds: number;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  mutated: number;
  slowest: { ms: number; status: number; line: string }[];
  failures: Failure[];
  ping: { checks: number; failed: number; slowestMs: number };
}

/** The request `index` of run `seed`: a grammar's request, mutated 40% of the time, as one actor. */
export function generate(seed: number, index: number, world: FuzzWorld): FuzzRequest {
  const rng = Rng.forRequest(seed, index);
  const req = rng.weighted<() => FuzzRequest>([
    [40, () => v7Read(rng, world)],
    [18, () => v7Write(rng, world)],
    [14, () => deviceRequest(rng, world)],
    [7, () => logsRequest(rng, world)],
    [9, () => registryRequest(rng, world)],
    [5, () => tokenRequest(rng, world)],
    [4, () => otherRequest(rng, world)],
  ])();
  req.path = clientEncode(req.path);
  if (!req.actor) {
    const actor = rng.pick(world.actors);
    req.actor = actor.name;
    req.headers = { ...actor.headers, ...req.headers };
  }
  if (rng.chance(0.4)) mutate(rng, req);
  return req;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Node's default `maxHeaderSize`: heads beyond it are refused by the HTTP parser. */
const OVERSIZED_HEAD = 16 * 1024;
const headBytes = (req: FuzzRequest) => Buffer.byteLength(req.path) + Object.entries(req.headers).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v) + 4, 0);

/**
 * The oracle of one answer (docs/fuzzing.md): an HTTP answer arrived, not 5xx, every 4xx
 * carries a message in its API's error shape (a JSON string; the registry's
 * `{"errors":[{message}]}`), and it took less than SLOW_MS.
 */
export function judge(req: FuzzRequest, a: Answer): string | undefined {
  if (a.status === 0) return `no answer (${a.error ?? 'unknown'})`;
  if (a.status >= 500) return `${a.status}`;
  if (a.ms > SLOW_MS) return `slow: ${Math.round(a.ms)} ms`;
  if (a.status >= 400 && req.method !== 'HEAD') {
    // The HTTP parser's refusal of an oversized request head (past Node's 16 KiB limit, so it
    // may reach the server in several reads): when the refused read no longer holds the request
    // line, the server cannot tell a HEAD (which must get no body) from the rest and answers
    // with the status line alone (infra/http/errors.ts clientErrorHandler).
    if ((a.status === 431 || a.status === 414) && a.body === '' && headBytes(req) > OVERSIZED_HEAD) return undefined;
    if (a.body.trim() === '') return `${a.status} without a message`;
    const body = parseJson(a.body);
    const registryShape = (b: unknown) =>
      typeof b === 'object' && b !== null && Array.isArray((b as { errors?: unknown }).errors) && (b as { errors: { message?: unknown }[] }).errors.every((e) => typeof e.message === 'string' && e.message !== '');
    const ok = (typeof body === 'string' && body !== '') || (req.path.startsWith('/v2') && registryShape(body)) || (req.path.startsWith('/auth/v1/token') && (registryShape(body) || (typeof body === 'object' && body !== null)));
    if (!ok) return `${a.status} not in the error shape: ${a.body.slice(0, 200)}`;
  }
  return undefined;
}

/** Polls `/ping` every 200 ms on its own connection while the run lasts. */
function watchPing(base: URL): { stop(): Promise<Summary['ping']> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const stats = { checks: 0, failed: 0, slowestMs: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const a = await send(agent, base, { kind: 'other', method: 'GET', path: '/ping', headers: {}, actor: 'anonymous', mutations: [] });
      stats.checks++;
      stats.slowestMs = Math.max(stats.slowestMs, a.ms);
      if (a.status !== 200 || a.ms > SLOW_MS) stats.failed++;
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return stats;
    },
  };
}

export interface RunOptions {
  baseUrl: string;
  seed: number;
  count: number;
  world: FuzzWorld;
  concurrency?: number;
  /** Only these request indexes (reproduce one failure: FUZZ_INDEX). */
  indexes?: number[];
  log?: (line: string) => void;
  /** A file to append one JSON line per request to (FUZZ_TRACE): what was sent, what came back. */
  trace?: string;
}

/** Sends `count` generated requests over real HTTP, `concurrency` at a time, judging each. */
export async function runFuzz(opts: RunOptions): Promise<Summary> {
  const base = new URL(opts.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 4 });
  const log = opts.log ?? (() => undefined);
  const ping = watchPing(base);
  const started = performance.now();
  const summary: Summary = { seed: opts.seed, requests: 0, seconds: 0, byStatus: {}, byKind: {}, mutated: 0, slowest: [], failures: [], ping: { checks: 0, failed: 0, slowestMs: 0 } };
  const indexes = opts.indexes ?? Array.from({ length: opts.count }, (_, i) => i);
  let next = 0;
  const worker = async () => {
    while (next < indexes.length) {
      const index = indexes[next++]!;
      const req = generate(opts.seed, index, opts.world);
      const a = await send(agent, base, req);
      summary.requests++;
      summary.byStatus[a.status] = (summary.byStatus[a.status] ?? 0) + 1;
      summary.byKind[req.kind] = (summary.byKind[req.kind] ?? 0) + 1;
      if (req.mutations.length) summary.mutated++;
      const line = `${req.method} ${req.path.length > 160 ? `${req.path.slice(0, 160)}…` : req.path} [${req.actor}] (seed ${opts.seed} index ${index})`;
      if (summary.slowest.length < 10 || a.ms > summary.slowest[summary.slowest.length - 1]!.ms) {
        summary.slowest.push({ ms: Math.round(a.ms), status: a.status, line });
        summary.slowest.sort((x, y) => y.ms - x.ms);
        summary.slowest.length = Math.min(summary.slowest.length, 10);
      }
      const reason = judge(req, a);
      if (opts.trace) appendFileSync(opts.trace, `${JSON.stringify({ index, kind: req.kind, actor: req.actor, method: req.method, path: req.path.slice(0, 300), mutations: req.mutations, status: a.status, ms: Math.round(a.ms), body: a.body.slice(0, 200) })}\n`);
      if (reason) {
        const f: Failure = { seed: opts.seed, index, reason, status: a.status, ms: Math.round(a.ms), body: a.body.slice(0, 500), request: req, curl: reproduce(req, opts.baseUrl) };
        summary.failures.push(f);
        log(formatFailure(f));
      }
      if (summary.requests % 10_000 === 0) log(`fuzz: ${summary.requests}/${indexes.length} requests, ${summary.failures.length} failures, ${Math.round((performance.now() - started) / 1000)} s`);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  summary.ping = await ping.stop();
  agent.destroy();
  return summary;
}

export function formatFailure(f: Failure): string {
  return [
    `FUZZ FAILURE: ${f.reason} (status ${f.status}, ${f.ms} ms) — reproduce: FUZZ_SEED=${f.seed} FUZZ_INDEX=${f.index} npm run fuzz`,
    `  ${f.request.kind} as ${f.request.actor}; mutations: ${f.request.mutations.join(', ') || 'none'}`,
    `  ${f.curl.length > 1500 ? `${f.curl.slice(0, 1500)}…` : f.curl}`,
    `  answer: ${f.body.slice(0, 300)}`,
  ].join('\n');
}

export function formatSummary(s: Summary, ws?: { frames: number; connections: number; failures: string[] }): string {
  const lines = [
    `fuzz summary: seed ${s.seed}, ${s.requests} HTTP requests in ${s.seconds} s (${Math.round(s.requests / Math.max(s.seconds, 0.1))}/s), ${s.mutated} mutated`,
    `  by status: ${Object.entries(s.byStatus).map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    `  by kind: ${Object.entries(s.byKind).map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    `  /ping: ${s.ping.checks} checks, ${s.ping.failed} failed, slowest ${Math.round(s.ping.slowestMs)} ms`,
    ...(ws ? [`  websocket: ${ws.connections} connections, ${ws.frames} frames, ${ws.failures.length} failures`] : []),
    `  slowest requests:`,
    ...s.slowest.map((x) => `    ${x.ms} ms ${x.status} ${x.line}`),
    `  failures: ${s.failures.length}`,
    ...s.failures.slice(0, 50).map((f) => `    ${f.reason}: FUZZ_SEED=${f.seed} FUZZ_INDEX=${f.index} ${f.request.method} ${f.request.path.slice(0, 200)}`),
  ];
  return lines.join('\n');
}
