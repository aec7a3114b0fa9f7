import { createConnection } from 'node:net';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { HttpError } from '../errors.js';

// Return bigint/numeric counts as JS numbers (ids and counts stay far below 2^53).
pg.types.setTypeParser(20, (v) => Number(v));

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** What the data layer and services need from the database: queries and transactions. */
export interface QueryOptions {
  /**
   * Run as a named prepared statement: PostgreSQL plans it once per connection. Only for
   * statements whose text is fixed for the name (the data API's compiled queries).
   */
  name?: string;
}

export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** Run `fn` in a transaction; nested calls reuse the outer transaction. */
  tx<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` once the current transaction has committed (at once outside a transaction);
   * never when it rolls back. For side effects that must not escape a rolled-back write,
   * such as mail. The transaction's caller awaits these before `tx` returns; an error in
   * one is reported to `onError` (the console by default) and does not undo the commit.
   */
  afterCommit(fn: () => void | Promise<void>): void;
}

type AfterCommit = () => void | Promise<void>;

async function runAfterCommit(callbacks: readonly AfterCommit[], onError: (err: unknown) => void): Promise<void> {
  for (const fn of callbacks) {
    try {
      await fn();
    } catch (err) {
      onError(err);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Request scope: who the statements are for, when to give up on them

/**
 * The request a statement runs for (set per HTTP request by infra/http/db-scope.ts; absent
 * for start-up work and jobs). It bounds each statement of the request and shares the pool
 * fairly between callers.
 */
export interface DbScope {
  /** The caller the pool is shared by (an actor, or an address for anonymous callers). */
  key(): string;
  /**
   * Aborted when the client has gone away: the running statements are cancelled. Unset once
   * the request has ended, so work it left behind (a batch it queued) runs on.
   */
  signal?: AbortSignal;
  /** Each statement of the request is cancelled after this long (a 503 with a message). */
  statementTimeoutMs?: number;
}

/** Tries of a transaction PostgreSQL rolled back as a deadlock victim or for a serialization failure. */
const CONFLICT_ATTEMPTS = 5;

/**
 * Runs `run` (which opens and commits its own transaction) again when PostgreSQL rolled it
 * back as a deadlock victim (40P01) or for a serialization failure (40001): such a transaction
 * wrote nothing, and running it again is what PostgreSQL prescribes. Issue 21: the audit
 * chain's per-organization lock, held from a write's audit row to its commit, made concurrent
 * writes beside a migration's DDL end as deadlock victims (500s).
 */
export async function retryConflicts<T>(run: () => Promise<T>, attempts = CONFLICT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (isConflict(err) && attempt < attempts) continue;
      throw err;
    }
  }
}

/** PostgreSQL rolled the transaction back as a deadlock victim or for a serialization failure. */
export function isConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * `db` bound to a request's scope: its statements (and its transactions') are bounded by the
 * scope and count against the caller's fair share of the pool. The scope is passed
 * explicitly, not through AsyncLocalStorage: on Node 20 that instruments every promise of
 * the process (the fleet-list bench lost ~15 % of its throughput and gained 60 MB of peak
 * memory with it). Work a request only sets off (a batch, a bus delivery) thus never
 * inherits the request's bounds. Other Db implementations (a transaction) are returned as
 * they are.
 */
export function scopedDb(db: Db, scope: DbScope | undefined): Db {
  return scope !== undefined && db instanceof PoolDb ? new ScopedDb(db, scope) : db;
}

/** A statement of a request cancelled after the request's statement timeout. */
export class StatementTimeoutError extends HttpError {
  constructor(ms: number) {
    super(
      503,
      `The database work for this request took longer than ${ms / 1000} s and was stopped: ask for less ` +
        '(fewer rows with $top, fewer $expand levels, a simpler $filter) or try again later',
    );
  }
}

/** No connection became free for the caller in time. */
export class DatabaseBusyError extends HttpError {
  constructor() {
    super(503, 'The database is busy; try again in a moment', { 'Retry-After': '2' });
  }
}

/** The client went away: the response would reach nobody. */
export class ClientGoneError extends HttpError {
  constructor() {
    super(499, 'The client closed the request');
  }
}

/** A value the driver cannot turn into a JavaScript string (over 512 MB). */
export class ValueTooLargeError extends HttpError {
  constructor() {
    super(400, 'The response is too large to send: ask for fewer rows or fields');
  }
}

interface BackendClient extends pg.PoolClient {
  processID: number | null;
  secretKey: number | null;
  host: string;
  port: number;
}

/**
 * Asks PostgreSQL to cancel what the backend of `client` runs, over a new socket (the
 * protocol's CancelRequest: it needs no pool connection and no authentication).
 */
function cancelBackend(client: BackendClient): void {
  if (client.processID === null || client.secretKey === null) return;
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(80877102, 4);
  message.writeInt32BE(client.processID, 8);
  message.writeInt32BE(client.secretKey, 12);
  const socket = client.host.startsWith('/') ? createConnection(`${client.host}/.s.PGSQL.${client.port}`) : createConnection(client.port, client.host);
  socket.on('error', () => undefined);
  socket.once('connect', () => socket.end(message));
}

/**
 * Runs one statement on `client` within the request's bounds: cancelled when the client
 * goes away or the statement timeout passes. Sets `cancelled.sent` when a cancel was sent:
 * it may arrive after the statement ended, so that connection must not be reused.
 */
async function runBounded(client: BackendClient, config: pg.QueryConfig, scope: DbScope | undefined, cancelled: { sent: boolean }): Promise<pg.QueryResult> {
  if (scope === undefined) return client.query(config);
  // The scope drops its signal when the request ends; this statement keeps the one it began with.
  const signal = scope.signal;
  if (signal?.aborted) throw new ClientGoneError();
  const cancel = () => {
    cancelled.sent = true;
    cancelBackend(client);
  };
  let timedOut = false;
  const ms = scope.statementTimeoutMs;
  const timer =
    ms === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          cancel();
        }, ms);
  signal?.addEventListener('abort', cancel);
  try {
    return await client.query(config);
  } catch (err) {
    if ((err as { code?: string }).code === '57014') {
      if (timedOut) throw new StatementTimeoutError(ms!);
      if (signal?.aborted) throw new ClientGoneError();
    }
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}

/** Errors the driver raises for a value it cannot hold, as the client error they are. */
function driverError(err: unknown): unknown {
  return (err as { code?: string }).code === 'ERR_STRING_TOO_LONG' ? new ValueTooLargeError() : err;
}

/**
 * pg parses the server's messages inside the socket's `data` event: an exception there
 * (a text over V8's string limit: ERR_STRING_TOO_LONG) would escape every handler and end
 * the process. Each connection's data events are delivered inside a try/catch; an exception
 * destroys that connection with the error, which fails its query and drops it from the pool.
 *
 * A connection also always listens for its own 'error' event. The pool listens only while
 * the connection is idle, and between the pool handing a connection out and its caller's
 * first query nobody does: a backend ending then (PostgreSQL killed or restarted, which
 * sends FATAL on every connection) raised an uncaught exception that ended the process.
 * The error still marks the connection not queryable, so it is closed on release.
 */
class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
    const connection = (this as unknown as { connection: { attachListeners(stream: Duplex): void } }).connection;
    const attach = connection.attachListeners.bind(connection);
    connection.attachListeners = (stream: Duplex) => {
      const emit = stream.emit.bind(stream) as (event: string | symbol, ...args: unknown[]) => boolean;
      stream.emit = ((event: string | symbol, ...args: unknown[]) => {
        if (event !== 'data') return emit(event, ...args);
        try {
          return emit(event, ...args);
        } catch (err) {
          stream.destroy(err as Error);
          return false;
        }
      }) as typeof stream.emit;
      attach(stream);
    };
  }
}

// ---------------------------------------------------------------------------------------
// Fair share of the pool

interface Waiter {
  key: string;
  grant(): void;
}

/**
 * Hands out the pool's connections so that no caller can take them all: a caller holds at
 * most `share` of them at once, and a freed connection goes to the waiting caller holding
 * the fewest (the longest waiting among equals). One user's slow requests then queue
 * behind each other while other users' requests still find a connection.
 */
export class FairShare {
  private inUse = 0;
  private readonly held = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly capacity: number,
    readonly share: number,
    private readonly waitMs: number,
  ) {}

  private heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }

  private take(key: string): void {
    this.inUse++;
    this.held.set(key, this.heldBy(key) + 1);
  }

  /** Resolves when `key` may use one more connection; `release(key)` gives it back. */
  acquire(key: string, signal?: AbortSignal): Promise<void> {
    if (this.inUse < this.capacity && this.heldBy(key) < this.share) {
      this.take(key);
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(new ClientGoneError());
    return new Promise((resolve, reject) => {
      const leave = (err: Error) => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
        reject(err);
      };
      const gone = () => leave(new ClientGoneError());
      const timer = setTimeout(() => leave(new DatabaseBusyError()), this.waitMs);
      const waiter: Waiter = {
        key,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', gone);
          resolve();
        },
      };
      signal?.addEventListener('abort', gone);
      this.waiting.push(waiter);
    });
  }

  release(key: string): void {
    this.inUse--;
    const n = this.heldBy(key) - 1;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.inUse < this.capacity) {
      let best = -1;
      for (let i = 0; i < this.waiting.length; i++) {
        const h = this.heldBy(this.waiting[i]!.key);
        if (h >= this.share) continue;
        if (best < 0 || h < this.heldBy(this.waiting[best]!.key)) best = i;
      }
      if (best < 0) return;
      const [waiter] = this.waiting.splice(best, 1);
      this.take(waiter!.key);
      waiter!.grant();
    }
  }
}

class ClientDb implements Db {
  readonly committed: AfterCommit[] = [];
  readonly cancelled = { sent: false };
  constructor(
    private readonly client: pg.PoolClient,
    private readonly scope: DbScope | undefined,
  ) {}
  afterCommit(fn: AfterCommit): void {
    this.committed.push(fn);
  }
  async query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<T>> {
    try {
      const r = await runBounded(this.client as BackendClient, { text: sql, values: params as unknown[], name: options.name }, this.scope, this.cancelled);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    } catch (err) {
      throw driverError(err);
    }
  }
  tx<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

/** A request waits at most this long for a connection instead of queueing forever. */
const CONNECTION_WAIT_MS = 10_000;

export class PoolDb implements Db {
  readonly pool: pg.Pool;
  /** Who may take the next connection (see FairShare); the pool itself never queues. */
  readonly share: FairShare;
  constructor(connectionString: string, options: { max?: number } = {}) {
    const max = options.max ?? 10;
    this.pool = new pg.Pool({
      connectionString,
      max,
      connectionTimeoutMillis: CONNECTION_WAIT_MS,
      idleTimeoutMillis: 30_000,
      Client: GuardedClient,
    });
    this.pool.on('error', () => {
      /* idle client errors (e.g. server restart) are recovered by the pool */
    });
    // Each caller may hold half of the connections (docs/decisions.md, issue 11).
    this.share = new FairShare(max, Math.max(1, Math.ceil(max / 2)), CONNECTION_WAIT_MS);
  }

  /**
   * A connection for the current scope's caller (its fair share), released by `done`. A
   * connection that a cancel request was sent for is closed rather than reused: the cancel
   * could otherwise reach the next statement run on it.
   */
  private async connect(scope: DbScope | undefined): Promise<{ client: BackendClient; done(cancelled: boolean): void }> {
    const key = scope?.key() ?? 'system';
    await this.share.acquire(key, scope?.signal);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      this.share.release(key);
      if (/timeout exceeded when trying to connect/.test(String((err as Error)?.message))) throw new DatabaseBusyError();
      throw err;
    }
    let released = false;
    return {
      client: client as BackendClient,
      done: (cancelled) => {
        if (released) return;
        released = true;
        // A connection that failed (see GuardedClient) is not queryable any more.
        const broken = (client as unknown as { _queryable?: boolean })._queryable === false;
        client.release(cancelled || broken || undefined);
        this.share.release(key);
      },
    };
  }

  query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<T>> {
    return this.queryIn(undefined, sql, params, options);
  }

  /** A statement on its own connection, bounded by `scope` (see scopedDb). */
  async queryIn<T>(scope: DbScope | undefined, sql: string, params: readonly unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<T>> {
    const { client, done } = await this.connect(scope);
    const cancelled = { sent: false };
    try {
      const r = await runBounded(client, { text: sql, values: params as unknown[], name: options.name }, scope, cancelled);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    } catch (err) {
      throw driverError(err);
    } finally {
      done(cancelled.sent);
    }
  }

  tx<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.txIn(undefined, fn);
  }

  /** A transaction whose statements are bounded by `scope` (see scopedDb). */
  async txIn<T>(scope: DbScope | undefined, fn: (db: Db) => Promise<T>): Promise<T> {
    const { client, done } = await this.connect(scope);
    const txDb = new ClientDb(client, scope);
    let result: T;
    try {
      await txDb.query('BEGIN');
      result = await fn(txDb);
      await txDb.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      done(txDb.cancelled.sent);
    }
    await runAfterCommit(txDb.committed, this.onAfterCommitError);
    return result;
  }
  afterCommit(fn: AfterCommit): void {
    void runAfterCommit([fn], this.onAfterCommitError);
  }
  /** Where errors of after-commit callbacks go (buildApp points it at the app's logger). */
  onAfterCommitError: (err: unknown) => void = (err) => console.error('after-commit callback failed', err);
  end(): Promise<void> {
    return this.pool.end();
  }
}

class ScopedDb implements Db {
  constructor(
    private readonly pool: PoolDb,
    private readonly scope: DbScope,
  ) {}
  query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
    return this.pool.queryIn<T>(this.scope, sql, params, options);
  }
  tx<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.pool.txIn(this.scope, fn);
  }
  afterCommit(fn: AfterCommit): void {
    this.pool.afterCommit(fn);
  }
}
