/**
 * Staged edits of a table of rows (spec 2 §4 "Variable edit staging"): pure and UI-free, so the
 * variables and configuration pages share one behaviour and the rules are unit-tested here.
 *
 * The server's rows are the base; the staging holds only the changes, keyed by the row's key
 * (its id, or a temporary key for a row added here). Merging the two gives each row its state.
 */

export type RowState = 'unchanged' | 'added' | 'updated' | 'deleted';

/** One pending change. `error` is the server's message from the last failed apply of it. */
export type Change<T> =
  | { kind: 'added'; value: T; error?: string }
  | { kind: 'updated'; value: T; original: T; error?: string }
  | { kind: 'deleted'; original: T; error?: string };

/** The pending changes by row key. Immutable: every operation answers a new map. */
export type Changes<T> = ReadonlyMap<string, Change<T>>;

/** A row as the table shows it: the value it will have after 'apply all', and why. */
export interface StagedRow<T> {
  key: string;
  /** The staged value (for a deleted row: the server's value). */
  value: T;
  /** The server's value; undefined for an added row. */
  original: T | undefined;
  state: RowState;
  error?: string;
}

/** The key prefix of rows added in the browser (never an id: ids are numbers). */
export const ADDED_KEY_PREFIX = 'new:';

let addedCounter = 0;
/** A fresh key for a row added in the browser. */
export function newRowKey(): string {
  addedCounter += 1;
  return `${ADDED_KEY_PREFIX}${addedCounter}`;
}

export function isAddedKey(key: string): boolean {
  return key.startsWith(ADDED_KEY_PREFIX);
}

function withChange<T>(changes: Changes<T>, key: string, change: Change<T> | undefined): Changes<T> {
  const next = new Map(changes);
  if (change === undefined) next.delete(key);
  else next.set(key, change);
  return next;
}

/** Stages a new row under `key` (from `newRowKey()`). */
export function stageAdd<T>(changes: Changes<T>, key: string, value: T): Changes<T> {
  return withChange(changes, key, { kind: 'added', value });
}

/**
 * Stages a new value of a row: an added row stays added with the new value; a server row is
 * updated, or back to unchanged when the value equals the server's again.
 */
export function stageUpdate<T>(
  changes: Changes<T>,
  key: string,
  original: T | undefined,
  value: T,
  equals: (a: T, b: T) => boolean = Object.is,
): Changes<T> {
  const current = changes.get(key);
  if (current?.kind === 'added' || (current === undefined && original === undefined)) return withChange(changes, key, { kind: 'added', value });
  const base = current?.kind === 'updated' || current?.kind === 'deleted' ? current.original : original;
  if (base === undefined) return changes;
  return withChange(changes, key, equals(base, value) ? undefined : { kind: 'updated', value, original: base });
}

/** Stages the removal of a row: an added row simply goes away; a server row is marked deleted. */
export function stageDelete<T>(changes: Changes<T>, key: string, original: T | undefined): Changes<T> {
  const current = changes.get(key);
  if (current?.kind === 'added' || (current === undefined && original === undefined)) return withChange(changes, key, undefined);
  const base = current?.kind === 'updated' || current?.kind === 'deleted' ? current.original : original;
  if (base === undefined) return changes;
  return withChange(changes, key, { kind: 'deleted', original: base });
}

/** Per-row undo: the row goes back to the server's state (an added row disappears). */
export function undoChange<T>(changes: Changes<T>, key: string): Changes<T> {
  return withChange(changes, key, undefined);
}

/**
 * The rows to show: the server's rows in their order with their staged state, then the added
 * rows in the order they were added. A change whose server row is gone (deleted elsewhere
 * and refetched) is not shown.
 */
export function mergeRows<T>(base: readonly T[], keyOf: (row: T) => string, changes: Changes<T>): StagedRow<T>[] {
  const rows: StagedRow<T>[] = base.map((row) => {
    const key = keyOf(row);
    const change = changes.get(key);
    if (change === undefined || change.kind === 'added') return { key, value: row, original: row, state: 'unchanged' };
    const value = change.kind === 'updated' ? change.value : row;
    return { key, value, original: row, state: change.kind, ...(change.error !== undefined ? { error: change.error } : {}) };
  });
  for (const [key, change] of changes) {
    if (change.kind !== 'added') continue;
    rows.push({ key, value: change.value, original: undefined, state: 'added', ...(change.error !== undefined ? { error: change.error } : {}) });
  }
  return rows;
}

/** How many rows 'apply all' would write. */
export function pendingCount<T>(rows: readonly StagedRow<T>[]): number {
  return rows.filter((row) => row.state !== 'unchanged').length;
}

/** One write of 'apply all', as the page's writer receives it. */
export type PendingWrite<T> =
  | { key: string; kind: 'added'; value: T }
  | { key: string; kind: 'updated'; value: T; original: T }
  | { key: string; kind: 'deleted'; original: T };

/** The writes 'apply all' runs, in the rows' order. */
export function pendingWrites<T>(rows: readonly StagedRow<T>[]): PendingWrite<T>[] {
  return rows.flatMap((row): PendingWrite<T>[] => {
    if (row.state === 'added') return [{ key: row.key, kind: 'added', value: row.value }];
    if (row.state === 'updated' && row.original !== undefined) return [{ key: row.key, kind: 'updated', value: row.value, original: row.original }];
    if (row.state === 'deleted' && row.original !== undefined) return [{ key: row.key, kind: 'deleted', original: row.original }];
    return [];
  });
}

/** A limiter in the manner of p-limit: at most `concurrency` of the given tasks run at once. */
export function limitConcurrency(concurrency: number): <R>(task: () => Promise<R>) => Promise<R> {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  let active = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    if (active >= concurrency) return;
    const start = queue.shift();
    if (start) start();
  };
  return <R>(task: () => Promise<R>) =>
    new Promise<R>((resolve, reject) => {
      queue.push(() => {
        active += 1;
        // A task that throws synchronously counts as a rejected one.
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            active -= 1;
            next();
          });
      });
      next();
    });
}

/** Spec 2 §7: configuration and variable writes run at most ten at a time. */
export const APPLY_CONCURRENCY = 10;

export type WriteResult = { key: string; ok: true } | { key: string; ok: false; error: string };

export interface ApplyOutcome<T> {
  results: WriteResult[];
  /** The changes left: exactly the failed rows, each with the server's message. */
  remaining: Changes<T>;
  failed: number;
}

/**
 * Runs every pending write (at most `concurrency` at once) and answers each row's result. A
 * failed row keeps its staged change with `errorText(error)`; a successful one leaves the
 * staging. Never throws: a writer's error is that row's result.
 */
export async function applyChanges<T>(
  rows: readonly StagedRow<T>[],
  changes: Changes<T>,
  writer: (write: PendingWrite<T>) => Promise<unknown>,
  errorText: (error: unknown) => string,
  concurrency: number = APPLY_CONCURRENCY,
): Promise<ApplyOutcome<T>> {
  const limit = limitConcurrency(concurrency);
  const writes = pendingWrites(rows);
  const results = await Promise.all(
    writes.map((write) =>
      limit(async (): Promise<WriteResult> => {
        try {
          await writer(write);
          return { key: write.key, ok: true };
        } catch (error) {
          return { key: write.key, ok: false, error: errorText(error) };
        }
      }),
    ),
  );
  const remaining = new Map<string, Change<T>>();
  for (const result of results) {
    if (result.ok) continue;
    const change = changes.get(result.key);
    if (change) remaining.set(result.key, { ...change, error: result.error });
  }
  return { results, remaining, failed: results.filter((r) => !r.ok).length };
}
