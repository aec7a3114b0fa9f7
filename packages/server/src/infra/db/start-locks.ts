import type { Db } from './db.js';

/**
 * Transaction-level advisory locks that let servers starting together on one database (a
 * cluster's first start, a rolling upgrade: issue 21) do their one-time start-up work one after
 * the other; the later ones find it done.
 */
export const START_LOCKS = {
  /** Applying migrations (migrate.ts). */
  migrations: 7_201_337,
  /** pg-boss's install, queues and schedules (job-runner.ts). */
  jobs: 7_201_338,
  /** Seeding the reference data (concurrent upserts of the same catalogue rows deadlocked). */
  seed: 7_201_339,
  /** Checking for and creating the platform administrator ('This email is already taken'). */
  admin: 7_201_340,
} as const;

/** Waits for `key` and holds it until `tx` ends. */
export async function holdStartLock(tx: Db, key: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
}
