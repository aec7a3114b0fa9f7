import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolDb } from './db.js';
import { createTestDb } from '../../../test/harness.js';

// Db.afterCommit: side effects (mail) run only once their transaction has committed.
let db: PoolDb;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await createTestDb());
  await db.query('CREATE TABLE after_commit_probe (v int)');
});
afterAll(() => drop());

describe('Db.afterCommit', () => {
  it('runs callbacks after COMMIT, when the written rows are visible to other connections, before tx returns', async () => {
    const seen: number[] = [];
    await db.tx(async (tx) => {
      await tx.query('INSERT INTO after_commit_probe VALUES (1)');
      tx.afterCommit(async () => {
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM after_commit_probe WHERE v = 1');
        seen.push(rows[0]!.n);
      });
      expect(seen).toEqual([]); // not yet
    });
    expect(seen).toEqual([1]);
  });

  it('never runs them when the transaction rolls back', async () => {
    const ran: string[] = [];
    await expect(
      db.tx(async (tx) => {
        await tx.query('INSERT INTO after_commit_probe VALUES (2)');
        tx.afterCommit(() => void ran.push('mail'));
        throw new Error('later rule failed');
      }),
    ).rejects.toThrow('later rule failed');
    expect(ran).toEqual([]);
    expect((await db.query('SELECT 1 FROM after_commit_probe WHERE v = 2')).rows).toHaveLength(0);
  });

  it('a failing callback is reported and does not undo the commit or skip the others', async () => {
    const errors: unknown[] = [];
    const previous = db.onAfterCommitError;
    db.onAfterCommitError = (err) => errors.push(err);
    const ran: string[] = [];
    try {
      await db.tx(async (tx) => {
        await tx.query('INSERT INTO after_commit_probe VALUES (3)');
        tx.afterCommit(() => {
          throw new Error('smtp down');
        });
        tx.afterCommit(() => void ran.push('second'));
      });
    } finally {
      db.onAfterCommitError = previous;
    }
    expect(ran).toEqual(['second']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['smtp down']);
    expect((await db.query('SELECT 1 FROM after_commit_probe WHERE v = 3')).rows).toHaveLength(1);
  });
});
