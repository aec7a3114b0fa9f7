import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import type { PoolDb } from '../../src/infra/db/db.js';
import { generateApiKey, hashApiKey } from '../../src/infra/auth/api-keys.js';
import { freePort } from './net.js';

/**
 * Helpers of the cloud-link tests: a real redis-server on a free port, devices with device
 * keys inserted directly, and a test device that holds a cloud link and answers actions.
 */

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/Ready to accept connections/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface TestDevice {
  id: number;
  uuid: string;
  key: string;
}

/** A device of `fleetId` with its own actor and a device key (as registration makes them). */
export async function insertDevice(db: PoolDb, fleetId: number): Promise<TestDevice> {
  const actor = (await db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
  const uuid = randomBytes(16).toString('hex');
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type)
     SELECT $1, $2, $3, a.id, a.is_for__device_type FROM application a WHERE a.id = $4 RETURNING id`,
    [actor, uuid, `device-${uuid.slice(0, 7)}`, fleetId],
  );
  const key = generateApiKey();
  await db.query('INSERT INTO api_key (key, name, is_of__actor) VALUES ($1, $2, $3)', [hashApiKey(key), 'device key', actor]);
  return { id: rows[0]!.id, uuid, key };
}

export interface ReceivedAction {
  type: 'action';
  id: string;
  action: string;
  params: Record<string, unknown>;
}

/** A device's end of the cloud link: records actions and answers them with `answer`. */
export class TestLink {
  readonly actions: ReceivedAction[] = [];
  /** Frames that are not actions (e.g. `target-changed`), in arrival order. */
  readonly notices: { type: string; [k: string]: unknown }[] = [];
  answer: (a: ReceivedAction) => { status: number; body: unknown } | null = () => ({ status: 200, body: 'OK' });
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as ReceivedAction;
      if (frame.type !== 'action') {
        this.notices.push(frame as unknown as { type: string });
        return;
      }
      this.actions.push(frame);
      const result = this.answer(frame);
      if (result) ws.send(JSON.stringify({ type: 'result', id: frame.id, ...result }));
    });
  }

  /** Opens a link; rejects with the HTTP status when the upgrade is refused. */
  static open(baseUrl: string, key: string | null, headers: Record<string, string> = {}): Promise<TestLink> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/device/v1/link`;
    const ws = new WebSocket(url, { headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers } });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TestLink(ws)));
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(new LinkRefused(res.statusCode ?? 0));
      });
      ws.once('error', reject);
    });
  }

  /** Resolves with the close code once the server closed the link. */
  closed(): Promise<number> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve(-1);
    return new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const done = this.closed();
    this.ws.close();
    await done;
  }
}

export class LinkRefused extends Error {
  constructor(readonly status: number) {
    super(`link refused with ${status}`);
  }
}

/** Polls `read` until `done(value)`; fails after `timeoutMs` (no fixed sleeps in assertions). */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not reached; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
