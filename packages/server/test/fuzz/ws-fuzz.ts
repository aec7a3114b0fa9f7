import { WebSocket } from 'ws';
import { TERMINAL_PATH } from '@flotilla/model';
import { Rng } from './prng.js';
import type { FuzzWorld } from './request.js';
import { deepJson, deepJsonText, EDGE_NUMBERS } from './v7-grammar.js';

/**
 * WebSocket frame fuzzing (docs/fuzzing.md): after a valid upgrade of the browser terminal
 * (`/terminal/v1`) or a device's cloud link (`/device/v1/link`), garbage, oversized, binary,
 * invalid UTF-8 and wrong-order frames. The oracle: the server answers a frame or closes the
 * connection (never with 1011, its internal-error code) — or, when the frames call for no
 * answer, still answers a WebSocket ping — within a few seconds.
 */

const MAX_FRAME = 1024 * 1024;

export interface WsSummary {
  connections: number;
  frames: number;
  closeCodes: Record<string, number>;
  failures: string[];
}

type Frame = string | Buffer | { text: Buffer };

function frames(rng: Rng, world: FuzzWorld, terminal: boolean, userToken: string | undefined): Frame[] {
  const uuid = world.deviceUuids.length ? rng.pick(world.deviceUuids) : 'x';
  const json = (v: unknown) => JSON.stringify(v);
  const one = (): Frame =>
    rng.weighted<() => Frame>([
      [3, () => rng.pick(['', 'x', '{', 'null', '[]', '"a"', '1', '{"event":1}', '{"type":null}', '\u0000', '😀'])],
      [2, () => Buffer.from(Array.from({ length: rng.int(1, 64) }, () => rng.int(0, 255)))],
      [1, () => ({ text: Buffer.from([0xc3, 0x28, 0xff, 0xfe]) })],
      [1, () => 'x'.repeat(rng.chance(0.5) ? MAX_FRAME + 1 : rng.int(1000, 200_000))],
      [1, () => deepJsonText(rng.int(100, 3000))],
      ...(terminal
        ? ([
            [3, () => json({ event: 'data', data: rng.pick(['ls\n', '', 'x'.repeat(70_000), 1]) })],
            [3, () => json({ event: 'resize', cols: rng.pick([80, 0, -1, 1e9, 1.5, 'x', ...EDGE_NUMBERS.map(Number)]), rows: rng.pick([24, 0, -1, 65536]) })],
            [4, () => json({ event: 'authentication', token: rng.chance(0.5) && userToken ? userToken : rng.pick(['', 'x', 'a.b.c']), uuid: rng.chance(0.8) ? uuid : rng.pick(['', 'x'.repeat(300), 1]), target: rng.pick([{ kind: 'host' }, { kind: 'service', service: 'main' }, { kind: 'x' }, null, 'host']), cols: 80, rows: 24 })],
            [1, () => json({ event: rng.pick(['ready', 'ssh connect', 'error', '__proto__', 'constructor']) })],
          ] as const)
        : ([
            [3, () => json({ type: 'result', id: rng.pick(['1', '', 'x'.repeat(1000)]), status: rng.pick([200, 500, 700, -1, '200']), body: rng.pick([null, 'OK', {}, deepJson(50)]) })],
            [2, () => json({ type: rng.pick(['terminal-output', 'terminal-status', 'terminal-exit']), session: rng.pick(['x', '00000000-0000-4000-8000-000000000000']), data: 'x', state: 'spawning', reason: 'r' })],
            [1, () => json({ type: rng.pick(['action', 'link-opened', 'target-changed', 'ping', '__proto__']), id: 'a' })],
          ] as const)),
    ])();
  return Array.from({ length: rng.int(1, 8) }, one);
}

/** One connection: upgrade, send the frames, judge what the server does. */
async function oneConnection(baseUrl: string, world: FuzzWorld, seed: number, index: number, stats: WsSummary): Promise<void> {
  const rng = Rng.forRequest(seed ^ 0x5eed, index);
  const terminal = rng.chance(0.5) || world.deviceKeys.every((k) => k === undefined);
  const userToken = world.actors.find((a) => a.name.startsWith('user'))?.headers.authorization?.replace(/^Bearer /, '');
  const keyed = world.deviceKeys.filter((k): k is string => k !== undefined);
  const headers: Record<string, string> = terminal ? {} : { authorization: `Bearer ${rng.pick(keyed)}` };
  const label = `ws ${terminal ? TERMINAL_PATH : '/device/v1/link'} (seed ${seed} index ${index})`;
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${terminal ? TERMINAL_PATH : '/device/v1/link'}`, { headers, maxPayload: 64 * 1024 * 1024 });
  stats.connections++;
  const outcome = await new Promise<string | undefined>((resolve) => {
    let answered = false;
    let settled = false;
    const settle = (failure: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      resolve(failure);
    };
    const timer = setTimeout(() => settle(`${label}: neither an answer nor a close within 10 s`), 10_000);
    ws.on('unexpected-response', (_req, res) => settle(res.statusCode !== undefined && res.statusCode < 500 ? undefined : `${label}: upgrade answered ${res.statusCode}`));
    ws.on('error', (err) => {
      if (!settled && !answered) settle(`${label}: ${err.message}`);
    });
    ws.on('message', () => {
      answered = true;
    });
    ws.on('close', (code) => {
      stats.closeCodes[code] = (stats.closeCodes[code] ?? 0) + 1;
      settle(code === 1011 ? `${label}: closed with 1011 (internal error)` : undefined);
    });
    ws.on('open', () => {
      const list = frames(rng, world, terminal, userToken);
      for (const f of list) {
        stats.frames++;
        if (typeof f === 'object' && 'text' in f) ws.send(f.text, { binary: false });
        else ws.send(f, { binary: Buffer.isBuffer(f) });
      }
      // The frames may call for no answer (a resize before authentication): then the
      // connection must still be alive and answer a ping.
      setTimeout(() => {
        if (settled) return;
        if (answered) return settle(undefined);
        ws.once('pong', () => settle(undefined));
        ws.ping();
      }, 1_500);
    });
  });
  if (outcome) stats.failures.push(outcome);
}

/** `count` WebSocket connections, `concurrency` at a time. */
export async function runWsFuzz(baseUrl: string, world: FuzzWorld, seed: number, count: number, concurrency = 4): Promise<WsSummary> {
  const stats: WsSummary = { connections: 0, frames: 0, closeCodes: {}, failures: [] };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await oneConnection(baseUrl, world, seed, next++, stats);
    }),
  );
  return stats;
}
