import pg from 'pg';

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

class ClientDb implements Db {
  readonly committed: AfterCommit[] = [];
  constructor(private readonly client: pg.PoolClient) {}
  afterCommit(fn: AfterCommit): void {
    this.committed.push(fn);
  }
  async query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<T>> {
    const r = await this.client.query({ text: sql, values: params as unknown[], name: options.name });
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
  }
  tx<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

export class PoolDb implements Db {
  readonly pool: pg.Pool;
  constructor(connectionString: string, options: { max?: number } = {}) {
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      // A request waits at most this long for a connection instead of queueing forever.
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
    });
    this.pool.on('error', () => {
      /* idle client errors (e.g. server restart) are recovered by the pool */
    });
  }
  async query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<T>> {
    const r = await this.pool.query({ text: sql, values: params as unknown[], name: options.name });
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
  }
  async tx<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const txDb = new ClientDb(client);
    let result: T;
    try {
      await client.query('BEGIN');
      result = await fn(txDb);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
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
