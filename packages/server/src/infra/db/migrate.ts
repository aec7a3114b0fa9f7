import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { retryConflicts, type Db } from './db.js';
import { MIGRATIONS_DIR } from '../../paths.js';
import { holdStartLock, START_LOCKS } from './start-locks.js';

/**
 * Applies every `migrations/NNNN_name.sql` not applied yet, in order, all in one transaction
 * (a failure leaves the schema as it was). `dir`: another directory of migrations (tests of
 * the rolling-upgrade rule apply a next release's migration to a running server's database).
 * The log lines of an attempt that ended as a deadlock victim are written again by the next.
 */
export async function migrate(db: Db, log: (msg: string) => void = () => undefined, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
  // A migration altering several tables under live traffic can end as a deadlock victim (its
  // DDL locks tables in its own order, a request in another): it wrote nothing and runs again.
  return retryConflicts(() => db.tx(async (tx) => {
    await holdStartLock(tx, START_LOCKS.migrations); // several server processes starting at once
    await tx.query(`CREATE TABLE IF NOT EXISTS flotilla_migration (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM flotilla_migration')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.query(await readFile(join(dir, file), 'utf8'));
      await tx.query('INSERT INTO flotilla_migration (name) VALUES ($1)', [file]);
      applied.push(file);
      log(`applied migration ${file}`);
    }
    return applied;
  }));
}
