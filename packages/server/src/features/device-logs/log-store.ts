import { isConflict, type Db } from '../../infra/db/db.js';
import { deleteDeviceLines, deleteLinesBefore, insertLogLines, pruneToNewest, readNewestLines, type PendingLine } from './device-logs.repository.js';
import type { LogLineInput, StoredLogLine } from './log-lines.js';

/** What a reader asks for: the newest `count` lines stored at or after `start` (ms). */
export interface LogReadOptions {
  count: number;
  start?: number | undefined;
}

/**
 * Where device logs live: a capped store per device (the last `retainLines` lines and
 * `retainDays` days). `append` resolves once the lines are stored; `onStored` listeners hear
 * each device's newly stored lines once per write, in order (the fan-out publishes there).
 * PostgreSQL by default (PgLogStore); another backend implements the same interface.
 */
export interface LogStore {
  append(deviceId: number, lines: readonly LogLineInput[]): Promise<void>;
  /** Oldest first; at most `retainLines`, never older than `retainDays`. */
  read(deviceId: number, opts: LogReadOptions): Promise<StoredLogLine[]>;
  clear(deviceId: number): Promise<void>;
  /** Drops lines older than the day cap (the periodic job). Returns how many went. */
  pruneExpired(): Promise<number>;
  onStored(listener: (deviceId: number, lines: StoredLogLine[]) => void): void;
  /** Writes what is buffered and stops the timer. */
  close(): Promise<void>;
}

export interface PgLogStoreOptions {
  retainLines: number;
  retainDays: number;
  clock: () => number;
  /** How long lines wait in the write buffer before a multi-row INSERT (default 50 ms). */
  flushIntervalMs?: number;
  /** A write starts at once when this many lines wait (default 2000). */
  flushLines?: number;
  /** One INSERT statement holds at most this many lines; a larger write runs several, in order (default 5000). */
  maxStatementLines?: number;
  onError?: (err: unknown) => void;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

const DAY_MS = 86_400_000;
/** The day cap's sweep deletes in chunks of this many lines (short statements, no long lock). */
const EXPIRE_CHUNK = 10_000;
/** Tries of one INSERT rolled back by a deadlock or a serialization failure. */
const INSERT_ATTEMPTS = 5;

/**
 * The PostgreSQL store. Appends from every stream and batch of this process wait in one
 * write buffer, flushed every `flushIntervalMs` (or at `flushLines`) as ONE multi-row INSERT;
 * writes never overlap, so a device's lines are stored (and announced) in arrival order.
 * Pruning to the last N is amortised: a device is pruned once it has written a quarter of N
 * (at least one line) since its last pruning, in the same flush, by one DELETE for all such
 * devices; readers never see the slack (they read at most N).
 */
export class PgLogStore implements LogStore {
  private pending: PendingLine[] = [];
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private closed = false;
  private readonly listeners: ((deviceId: number, lines: StoredLogLine[]) => void)[] = [];
  /** Lines written per device since it was last pruned. */
  private readonly sincePrune = new Map<number, number>();
  private readonly pruneEvery: number;
  private readonly flushIntervalMs: number;
  private readonly flushLines: number;
  private readonly maxStatementLines: number;

  constructor(
    private readonly db: Db,
    private readonly opts: PgLogStoreOptions,
  ) {
    this.pruneEvery = Math.max(1, Math.ceil(opts.retainLines / 4));
    this.flushIntervalMs = opts.flushIntervalMs ?? 50;
    this.flushLines = opts.flushLines ?? 2000;
    this.maxStatementLines = Math.max(1, opts.maxStatementLines ?? 5000);
  }

  onStored(listener: (deviceId: number, lines: StoredLogLine[]) => void): void {
    this.listeners.push(listener);
  }

  /** Lines waiting to be written. */
  get backlog(): number {
    return this.pending.length;
  }

  append(deviceId: number, lines: readonly LogLineInput[]): Promise<void> {
    if (lines.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('log store closed'));
    const createdAt = this.opts.clock();
    for (const l of lines) this.pending.push({ ...l, deviceId, createdAt });
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (this.pending.length >= this.flushLines) this.kick(0);
    else this.kick(this.flushIntervalMs);
    return done;
  }

  private kick(delay: number): void {
    if (this.writing) return; // the running write schedules the next one
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.write().finally(() => {
        this.writing = undefined;
        if (this.pending.length > 0) this.kick(this.pending.length >= this.flushLines ? 0 : this.flushIntervalMs);
      });
    }, delay);
  }

  private async write(): Promise<void> {
    const lines = this.pending;
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    if (lines.length === 0) return;
    let ids: Map<number, number[]>;
    try {
      ids = await this.insert(lines);
    } catch (err) {
      this.opts.onError?.(err);
      for (const w of waiters) w.reject(err);
      return;
    }
    // Group per device, in order, with the ids the INSERT gave them.
    const byDevice = new Map<number, StoredLogLine[]>();
    const taken = new Map<number, number>();
    for (const l of lines) {
      const list = ids.get(l.deviceId);
      if (!list) continue; // the device is gone
      const k = taken.get(l.deviceId) ?? 0;
      taken.set(l.deviceId, k + 1);
      let group = byDevice.get(l.deviceId);
      if (!group) byDevice.set(l.deviceId, (group = []));
      group.push({
        id: list[k]!,
        message: l.message,
        timestamp: l.timestamp,
        createdAt: l.createdAt,
        isSystem: l.isSystem,
        isStdErr: l.isStdErr,
        ...(l.serviceId === null ? {} : { serviceId: l.serviceId }),
      });
    }
    for (const [deviceId, group] of byDevice) {
      for (const listener of this.listeners) {
        try {
          listener(deviceId, group);
        } catch (err) {
          this.opts.onError?.(err);
        }
      }
    }
    for (const w of waiters) w.resolve();
    await this.prune(byDevice);
  }

  /**
   * One INSERT per `maxStatementLines` lines, in order (a statement's row locks on the devices,
   * taken by the foreign key's check, are held for less time and its parameters stay small).
   * A statement that PostgreSQL rolled back as a deadlock victim (the foreign key's
   * `FOR KEY SHARE` on device rows against a transaction locking those rows) or for a
   * serialization failure wrote nothing: it is run again, so the lines are not lost.
   */
  private async insert(lines: PendingLine[]): Promise<Map<number, number[]>> {
    const ids = new Map<number, number[]>();
    for (let from = 0; from < lines.length; from += this.maxStatementLines) {
      const part = await this.insertOnce(lines.slice(from, from + this.maxStatementLines));
      for (const [deviceId, list] of part) {
        const all = ids.get(deviceId);
        if (all) all.push(...list);
        else ids.set(deviceId, list);
      }
    }
    return ids;
  }

  private async insertOnce(lines: PendingLine[]): Promise<Map<number, number[]>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await insertLogLines(this.db, lines);
      } catch (err) {
        const code = (err as { code?: string }).code;
        // A device deleted between the statement's check and its commit: once more without it.
        if (code === '23503' && attempt === 1) continue;
        if (isConflict(err) && attempt < INSERT_ATTEMPTS) continue;
        throw err;
      }
    }
  }

  private async prune(written: Map<number, StoredLogLine[]>): Promise<void> {
    const due: number[] = [];
    for (const [deviceId, group] of written) {
      const n = (this.sincePrune.get(deviceId) ?? 0) + group.length;
      if (n >= this.pruneEvery) {
        due.push(deviceId);
        this.sincePrune.delete(deviceId);
      } else this.sincePrune.set(deviceId, n);
    }
    // Bounded: past 100,000 devices the counts start again (a reader never sees the slack).
    if (this.sincePrune.size > 100_000) this.sincePrune.clear();
    if (due.length === 0) return;
    try {
      await pruneToNewest(this.db, due, this.opts.retainLines);
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  private oldestKept(): number {
    return this.opts.clock() - this.opts.retainDays * DAY_MS;
  }

  async read(deviceId: number, opts: LogReadOptions): Promise<StoredLogLine[]> {
    const count = Math.min(opts.count, this.opts.retainLines);
    const since = Math.max(opts.start ?? 0, this.oldestKept());
    return readNewestLines(this.db, deviceId, count, since);
  }

  async clear(deviceId: number): Promise<void> {
    // Lines of this device still in the buffer are written first, then cleared with the rest.
    if (this.pending.some((l) => l.deviceId === deviceId) || this.writing) await this.flush();
    await deleteDeviceLines(this.db, deviceId);
    this.sincePrune.delete(deviceId);
  }

  async pruneExpired(): Promise<number> {
    const before = this.oldestKept();
    let total = 0;
    for (;;) {
      const n = await deleteLinesBefore(this.db, before, EXPIRE_CHUNK);
      total += n;
      if (n < EXPIRE_CHUNK) return total;
    }
  }

  /** Resolves once everything appended so far is written. */
  async flush(): Promise<void> {
    while (this.writing || this.pending.length > 0) {
      if (this.writing) await this.writing;
      else {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        this.writing = this.write().finally(() => {
          this.writing = undefined;
        });
      }
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
