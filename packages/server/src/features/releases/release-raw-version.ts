import { releaseRawVersion } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** Advisory-lock namespace: numbering final releases of one fleet happens one at a time. */
const REVISION_LOCK = 0x52455631; // 'REV1'

/**
 * Rule: raw_version follows semver, finality and revision (see `releaseRawVersion` in the
 * model). A final release without a revision gets the next one among its fleet's final
 * releases of the same semver (0 for the first, shown as the bare semver; N as `+revN`).
 * Revisions, once given, do not change unless the semver does.
 */
export async function assignRawVersions(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await db.query<{ id: number; app: number; semver: string; is_final: boolean; revision: number | null; created_at: Date; raw_version: string }>(
    `SELECT id, belongs_to__application AS app, semver, is_final, revision, created_at, raw_version
       FROM release WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  for (const r of rows) {
    let revision = r.is_final ? r.revision : null;
    if (r.is_final && revision === null) {
      await db.query('SELECT pg_advisory_xact_lock($1, $2)', [REVISION_LOCK, r.app]);
      const next = await db.query<{ n: number }>(
        `SELECT coalesce(max(revision) + 1, 0)::int AS n FROM release
          WHERE belongs_to__application = $1 AND semver = $2 AND is_final AND revision IS NOT NULL AND id <> $3`,
        [r.app, r.semver, r.id],
      );
      revision = next.rows[0]!.n;
    }
    const raw = releaseRawVersion({ semver: r.semver, is_final: r.is_final, revision, created_at: r.created_at });
    if (revision !== r.revision || raw !== r.raw_version) {
      await db.query('UPDATE release SET revision = $2, raw_version = $3 WHERE id = $1', [r.id, revision, raw]);
    }
  }
}
