import { useCallback, useMemo, useRef, useState } from 'react';
import {
  applyChanges,
  mergeRows,
  newRowKey,
  pendingCount,
  stageAdd,
  stageDelete,
  stageUpdate,
  undoChange,
  APPLY_CONCURRENCY,
  type ApplyOutcome,
  type Changes,
  type PendingWrite,
  type StagedRow,
} from './staging';

export interface UseStagingOptions<T> {
  /** The server's rows (undefined while they load). */
  rows: readonly T[] | undefined;
  keyOf: (row: T) => string;
  /** Whether two values are the same (an update back to the server's value is no change). */
  equals?: (a: T, b: T) => boolean;
}

export interface Staging<T> {
  rows: StagedRow<T>[];
  pending: number;
  hasChanges: boolean;
  applying: boolean;
  /** Set after an 'apply all' in which some writes failed (spec 2 §8 'Some changes failed to apply'). */
  someFailed: boolean;
  add: (value: T) => string;
  update: (key: string, value: T) => void;
  remove: (key: string) => void;
  undo: (key: string) => void;
  revertAll: () => void;
  /**
   * Writes every pending change (ten at a time), then `refresh()` (refetch the server's rows)
   * before the successful rows leave the staging, so the table never flickers back.
   */
  applyAll: (
    writer: (write: PendingWrite<T>) => Promise<unknown>,
    options: { errorText: (error: unknown) => string; refresh?: () => Promise<unknown>; concurrency?: number },
  ) => Promise<ApplyOutcome<T>>;
}

/** The staging of one table (see staging.ts), as React state. */
export function useStaging<T>({ rows: base, keyOf, equals }: UseStagingOptions<T>): Staging<T> {
  const [changes, setChanges] = useState<Changes<T>>(() => new Map());
  const [applying, setApplying] = useState(false);
  const [someFailed, setSomeFailed] = useState(false);
  const rows = useMemo(() => mergeRows(base ?? [], keyOf, changes), [base, keyOf, changes]);
  // The latest rows for callbacks that run later (apply all).
  const latest = useRef({ rows, changes });
  latest.current = { rows, changes };
  const originalOf = useCallback((key: string) => latest.current.rows.find((row) => row.key === key)?.original, []);

  const add = useCallback((value: T) => {
    const key = newRowKey();
    setChanges((c) => stageAdd(c, key, value));
    return key;
  }, []);
  const update = useCallback(
    (key: string, value: T) => setChanges((c) => stageUpdate(c, key, originalOf(key), value, equals)),
    [equals, originalOf],
  );
  const remove = useCallback((key: string) => setChanges((c) => stageDelete(c, key, originalOf(key))), [originalOf]);
  const undo = useCallback((key: string) => setChanges((c) => undoChange(c, key)), []);
  const revertAll = useCallback(() => {
    setChanges(new Map());
    setSomeFailed(false);
  }, []);

  const applyAll = useCallback<Staging<T>['applyAll']>(async (writer, { errorText, refresh, concurrency = APPLY_CONCURRENCY }) => {
    setApplying(true);
    try {
      const { rows: now, changes: staged } = latest.current;
      const outcome = await applyChanges(now, staged, writer, errorText, concurrency);
      if (refresh) await refresh().catch(() => undefined);
      setChanges(outcome.remaining);
      setSomeFailed(outcome.failed > 0);
      return outcome;
    } finally {
      setApplying(false);
    }
  }, []);

  const pending = pendingCount(rows);
  // The failure summary lasts while a failed row is still pending (undoing the last one ends it).
  return { rows, pending, hasChanges: pending > 0, applying, someFailed: someFailed && pending > 0, add, update, remove, undo, revertAll, applyAll };
}
