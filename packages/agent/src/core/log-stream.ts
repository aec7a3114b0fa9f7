import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { DeviceLogInput } from '@flotilla/model';
import { LogQueue, DEFAULT_QUEUE_LINES } from './log-queue.js';
import type { Scheduler, Task } from './scheduler.js';

/**
 * The device's log upload as a balena supervisor does it (dialect §4.5): one long-lived
 * `POST /device/v2/{uuid}/log-stream`, gzip-compressed NDJSON, one line per log object.
 *
 * - Opened on the first line (a quiet device holds no connection), ended after `idleMs`
 *   without a line — before the server's 60 s idle limit — and reopened by the next line.
 * - Lines gather in a bounded queue (`LogQueue`, oldest dropped with a notice); they are
 *   written and flushed with `Z_SYNC_FLUSH` every `flushMs` or as soon as `flushLines` are
 *   waiting, so the server sees each small batch at once.
 * - Lines wait `graceMs` after a connect before the first write: a server that refuses the
 *   stream (401, 404, 429) answers within that time and no line is lost to it.
 * - After an error or an unexpected end the stream reconnects after `reconnectMs` (5 s);
 *   a 429 backs off: the server's `Retry-After`, else `reconnectMs` doubling up to 5 min.
 *
 * Every timer goes through the shared `Scheduler`, so thousands of simulated devices each
 * with a stream cost no timers of their own.
 */

export interface LogStreamOptions {
  /** The API's base URL (`http(s)://host:port`). */
  apiEndpoint: string;
  uuid: string;
  deviceApiKey: string;
  scheduler: Scheduler;
  /** Shared by every stream of the process (the simulator's thousands); default: a fresh one. */
  agent?: http.Agent;
  flushMs?: number;
  flushLines?: number;
  idleMs?: number;
  reconnectMs?: number;
  maxBackoffMs?: number;
  graceMs?: number;
  maxQueueLines?: number;
  /** zlib window bits / memory level of the gzip stream (smaller for thousands of devices). */
  windowBits?: number;
  memLevel?: number;
  /** Diagnostics (the agent's console): connects, refusals, errors. */
  log?(message: string): void;
  /** False until the device is registered (its key works): lines queue, no request is made. Default true. */
  enabled?: boolean;
}

export interface LogStreamStats {
  /** Lines written to a stream (not counting drop notices). */
  sent: number;
  dropped: number;
  connects: number;
  failures: number;
  rateLimited: number;
}

export const LOG_STREAM_DEFAULTS = {
  flushMs: 100,
  flushLines: 50,
  idleMs: 50_000,
  reconnectMs: 5_000,
  maxBackoffMs: 300_000,
  graceMs: 1_000,
} as const;

/** Lines written per chunk at most, so one flush cannot hold the event loop for long. */
const WRITE_BATCH = 500;

interface Conn {
  req: http.ClientRequest;
  gzip: zlib.Gzip;
  ready: boolean;
  ended: boolean;
  blocked: boolean;
}

export class LogStream {
  readonly queue: LogQueue;
  readonly stats: LogStreamStats = { sent: 0, dropped: 0, connects: 0, failures: 0, rateLimited: 0 };
  private conn: Conn | null = null;
  private flushTask: Task | null = null;
  private idleTask: Task | null = null;
  private retryTask: Task | null = null;
  private graceTask: Task | null = null;
  private retryAt = 0;
  private failures = 0;
  private lastWriteAt = 0;
  private closed = false;
  private enabled: boolean;
  private readonly url: URL;
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly o: Required<Pick<LogStreamOptions, 'flushMs' | 'flushLines' | 'idleMs' | 'reconnectMs' | 'maxBackoffMs' | 'graceMs'>>;

  constructor(private readonly opts: LogStreamOptions) {
    const base = new URL(opts.apiEndpoint.endsWith('/') ? opts.apiEndpoint : `${opts.apiEndpoint}/`);
    this.url = new URL(`device/v2/${encodeURIComponent(opts.uuid)}/log-stream`, base);
    const secure = this.url.protocol === 'https:';
    this.transport = secure ? https : http;
    this.agent = opts.agent ?? (secure ? new https.Agent({ keepAlive: false }) : new http.Agent({ keepAlive: false }));
    this.o = {
      flushMs: opts.flushMs ?? LOG_STREAM_DEFAULTS.flushMs,
      flushLines: opts.flushLines ?? LOG_STREAM_DEFAULTS.flushLines,
      idleMs: opts.idleMs ?? LOG_STREAM_DEFAULTS.idleMs,
      reconnectMs: opts.reconnectMs ?? LOG_STREAM_DEFAULTS.reconnectMs,
      maxBackoffMs: opts.maxBackoffMs ?? LOG_STREAM_DEFAULTS.maxBackoffMs,
      graceMs: opts.graceMs ?? LOG_STREAM_DEFAULTS.graceMs,
    };
    this.queue = new LogQueue(opts.maxQueueLines ?? DEFAULT_QUEUE_LINES, () => opts.scheduler.now());
    this.enabled = opts.enabled ?? true;
  }

  /** Lets the stream connect (the device registered); queued lines go now. */
  enable(): void {
    if (this.enabled) return;
    this.enabled = true;
    if (this.queue.size > 0) this.connectSoon();
  }

  get connected(): boolean {
    return this.conn?.ready === true;
  }

  /** Queues a line for upload; never throws, never blocks. */
  push(line: DeviceLogInput): void {
    if (this.closed) return;
    const before = this.queue.droppedTotal;
    this.queue.push(line);
    this.stats.dropped += this.queue.droppedTotal - before;
    if (this.conn === null) {
      this.connectSoon();
      return;
    }
    if (!this.conn.ready || this.conn.blocked) return;
    if (this.queue.size >= this.o.flushLines) this.flush();
    else if (this.flushTask === null) this.flushTask = this.opts.scheduler.after(this.o.flushMs, () => this.flush());
  }

  /** Writes what is queued (if the stream can take it), ends the request and stops. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const s = this.opts.scheduler;
    for (const t of [this.flushTask, this.idleTask, this.retryTask, this.graceTask]) s.cancel(t);
    const conn = this.conn;
    if (conn === null) return;
    if (conn.ready) this.writeQueued(conn);
    await this.end(conn);
  }

  private connectSoon(): void {
    if (this.closed || !this.enabled || this.conn !== null || this.retryTask !== null) return;
    const wait = this.retryAt - this.opts.scheduler.now();
    if (wait > 0) {
      this.retryTask = this.opts.scheduler.after(wait, () => {
        this.retryTask = null;
        if (this.queue.size > 0) this.connect();
      });
      return;
    }
    this.connect();
  }

  private connect(): void {
    if (this.closed || this.conn !== null) return;
    const req = this.transport.request(this.url, {
      method: 'POST',
      agent: this.agent,
      headers: {
        authorization: `Bearer ${this.opts.deviceApiKey}`,
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
      },
    });
    const gzip = zlib.createGzip({ windowBits: this.opts.windowBits ?? 15, memLevel: this.opts.memLevel ?? 8 });
    const conn: Conn = { req, gzip, ready: false, ended: false, blocked: false };
    this.conn = conn;
    this.stats.connects++;
    gzip.pipe(req);
    gzip.on('error', (err) => this.fail(conn, `gzip: ${err.message}`));
    req.on('drain', () => this.onDrain(conn));
    req.on('error', (err) => this.fail(conn, err.message));
    req.on('response', (res) => {
      // Decided on the status line: the server may close the connection right after it.
      const status = res.statusCode ?? 0;
      res.on('error', () => undefined);
      res.resume();
      if (status === 429) {
        this.stats.rateLimited++;
        const retryAfter = Number(res.headers['retry-after']);
        this.fail(conn, 'rate limited (429)', Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined, true);
      } else if (status >= 200 && status < 300) {
        // The server ended the stream (its idle limit, or ours): a later line reopens it.
        this.drop(conn);
        if (this.queue.size > 0) this.connectSoon();
      } else {
        this.fail(conn, `the server answered ${status}`);
      }
    });
    req.on('close', () => {
      if (this.conn === conn && !conn.ended) this.fail(conn, 'the connection closed');
    });
    req.flushHeaders();
    this.graceTask = this.opts.scheduler.after(this.o.graceMs, () => {
      this.graceTask = null;
      if (this.conn !== conn) return;
      conn.ready = true;
      this.lastWriteAt = this.opts.scheduler.now();
      this.flush();
      this.scheduleIdle();
    });
  }

  private onDrain(conn: Conn): void {
    if (this.conn !== conn) return;
    conn.blocked = false;
    if (this.queue.size > 0) this.flush();
  }

  private flush(): void {
    this.opts.scheduler.cancel(this.flushTask);
    this.flushTask = null;
    const conn = this.conn;
    if (conn === null || !conn.ready || conn.blocked) return;
    if (this.writeQueued(conn)) this.lastWriteAt = this.opts.scheduler.now();
  }

  /** Writes the queue in chunks until it is empty or the socket pushes back; true if anything was written. */
  private writeQueued(conn: Conn): boolean {
    let wrote = false;
    while (this.queue.size > 0 && !conn.blocked) {
      const lines = this.queue.take(WRITE_BATCH);
      let text = '';
      for (const l of lines) text += JSON.stringify(l) + '\n';
      this.stats.sent += lines.filter((l) => !l.isSystem || !l.message.startsWith('Warning: Suppressed')).length;
      const more = conn.gzip.write(text);
      wrote = true;
      // The server sees this batch now, not when zlib's buffer fills.
      conn.gzip.flush(zlib.constants.Z_SYNC_FLUSH);
      if (!more || conn.req.writableNeedDrain) conn.blocked = true;
    }
    if (conn.blocked) conn.gzip.once('drain', () => this.onDrain(conn));
    if (wrote) this.failures = 0;
    return wrote;
  }

  private scheduleIdle(): void {
    this.opts.scheduler.cancel(this.idleTask);
    const conn = this.conn;
    if (conn === null) return;
    // Never in the past: a check that cannot end the stream (lines queued behind a full socket)
    // comes back a flush interval later instead of re-running at once, which starved every other
    // task on the scheduler.
    const due = Math.max(this.lastWriteAt + this.o.idleMs, this.opts.scheduler.now() + this.o.flushMs);
    this.idleTask = this.opts.scheduler.at(due, () => {
      this.idleTask = null;
      if (this.conn !== conn) return;
      // Lines waiting for their flush: the stream is not idle; write them now.
      if (this.queue.size > 0) this.flush();
      if (this.opts.scheduler.now() - this.lastWriteAt >= this.o.idleMs && this.queue.size === 0) {
        void this.end(conn);
        return;
      }
      this.scheduleIdle();
    });
  }

  /** Ends the request cleanly (the server stores everything written) and waits for its answer. */
  private end(conn: Conn): Promise<void> {
    conn.ended = true;
    if (this.conn === conn) this.conn = null;
    this.opts.scheduler.cancel(this.idleTask);
    this.idleTask = null;
    return new Promise<void>((resolve) => {
      let settled = false;
      const done = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve();
      };
      // A server that never answers does not hold the agent's stop.
      const timer = setTimeout(() => {
        conn.req.destroy();
        done();
      }, 5_000);
      timer.unref();
      if (conn.req.destroyed) return done();
      conn.req.once('close', done);
      conn.req.once('error', done);
      conn.gzip.end();
    });
  }

  private drop(conn: Conn): void {
    conn.ended = true;
    if (this.conn !== conn) return;
    this.conn = null;
    const s = this.opts.scheduler;
    s.cancel(this.graceTask);
    s.cancel(this.idleTask);
    s.cancel(this.flushTask);
    this.graceTask = this.idleTask = this.flushTask = null;
  }

  private fail(conn: Conn, why: string, retryAfterMs?: number, rateLimited = false): void {
    if (conn.ended || this.conn !== conn) return;
    this.drop(conn);
    conn.gzip.unpipe(conn.req);
    conn.gzip.destroy();
    conn.req.destroy();
    if (this.closed) return;
    this.failures++;
    this.stats.failures++;
    const backoff = Math.min(this.o.maxBackoffMs, this.o.reconnectMs * 2 ** Math.min(this.failures - 1, 20));
    const delay = retryAfterMs !== undefined ? Math.min(this.o.maxBackoffMs, Math.max(retryAfterMs, this.o.reconnectMs)) : rateLimited ? backoff : this.o.reconnectMs;
    this.retryAt = this.opts.scheduler.now() + delay;
    this.opts.log?.(`log stream: ${why}; reconnecting in ${Math.round(delay / 1000)} s`);
    if (this.queue.size > 0) this.connectSoon();
  }
}
