import { model } from '@flotilla/model';
import type { Db } from '../db/db.js';
import type { JobDefinition } from '../jobs/job-runner.js';
import type { FileStore } from './file-store.js';

/**
 * Stored files no row refers to any more are queued in `stored_file_garbage` by a trigger
 * (migration 0021), in the transaction that dropped them: so a file goes only once the
 * delete or overwrite has committed, whichever way the row went (the data API, a cascade
 * from its release, fleet or organization, raw SQL). This empties the queue.
 */

/** How long an upload begun with beginUpload and never committed keeps its parts. */
export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

export const FILE_GARBAGE_JOB = 'file-garbage';

/** Removes queued files; returns how many. Safe to run on several servers at once. */
export async function sweepFileGarbage(db: Db, store: FileStore): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await db.tx(async (tx) => {
      const { rows } = await tx.query<{ key: string }>(
        `SELECT key FROM stored_file_garbage ORDER BY queued_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      for (const r of rows) await store.remove(r.key);
      if (rows.length > 0) await tx.query('DELETE FROM stored_file_garbage WHERE key = ANY($1::text[])', [rows.map((r) => r.key)]);
      return rows.length;
    });
    removed += n;
    if (n < BATCH) return removed;
  }
}

/** Every minute: queued files, and multipart uploads abandoned for a day. */
export function fileGarbageJob(db: Db, store: FileStore): JobDefinition {
  return {
    name: FILE_GARBAGE_JOB,
    cron: '* * * * *',
    async run() {
      await sweepFileGarbage(db, store);
      await store.dropStaleUploads(STALE_UPLOAD_MS);
    },
  };
}

/**
 * Resources whose delete can drop a stored file: those with a WebResource field and every
 * resource whose delete cascades (foreign keys `onDelete: 'cascade'`) into one of them.
 * After such a delete the data API sweeps at once rather than waiting for the job.
 */
export function resourcesDroppingFiles(): ReadonlySet<string> {
  const out = new Set(Object.values(model).filter((r) => r.fields.some((f) => f.type === 'WebResource')).map((r) => r.name));
  for (let grown = true; grown; ) {
    grown = false;
    for (const r of Object.values(model)) {
      if (!out.has(r.name)) continue;
      for (const f of r.fields) {
        if (f.type === 'ForeignKey' && f.onDelete === 'cascade' && f.references && !out.has(f.references)) {
          out.add(f.references);
          grown = true;
        }
      }
    }
  }
  return out;
}
