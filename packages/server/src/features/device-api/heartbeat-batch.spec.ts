import { describe, expect, it } from 'vitest';
import type { Db } from '../../infra/db/db.js';
import { HeartbeatBatch } from './heartbeat-batch.js';

/** A Db whose heartbeat UPDATEs fail with the given codes first, then succeed (recorded). */
function fakeDb(failures: string[]) {
  const written: number[][] = [];
  const db = {
    query: (sql: string, params?: readonly unknown[]) => {
      if (!sql.includes('UPDATE device')) return Promise.resolve({ rows: [], rowCount: 0 });
      const code = failures.shift();
      if (code) return Promise.reject(Object.assign(new Error(code), { code }));
      written.push([...(params![0] as number[])]);
      return Promise.resolve({ rows: [], rowCount: 0 });
    },
  } as unknown as Db;
  return { db, written };
}

describe('HeartbeatBatch', () => {
  it('writes a batch again when PostgreSQL rolled it back as a deadlock victim or for a serialization failure (soak, issue 21)', async () => {
    const { db, written } = fakeDb(['40P01', '40001']);
    const errors: unknown[] = [];
    const batch = new HeartbeatBatch(db, 1_000, (err) => errors.push(err));
    batch.record(3);
    batch.record(1);
    await batch.flush();
    expect(written).toEqual([[3, 1]]);
    expect(errors).toEqual([]);
  });

  it('reports a batch that keeps failing, and other errors at once', async () => {
    const { db, written } = fakeDb(['40P01', '40P01', '40P01', '23505']);
    const errors: { code?: string }[] = [];
    const batch = new HeartbeatBatch(db, 1_000, (err) => errors.push(err as { code?: string }));
    batch.record(1);
    await batch.flush();
    batch.record(2);
    await batch.flush();
    expect(errors.map((e) => e.code)).toEqual(['40P01', '23505']);
    expect(written).toEqual([]);
  });
});
