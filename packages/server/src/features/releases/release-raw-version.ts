import { releaseRawVersion } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { advisoryXactLock, selectNextRevision, selectReleaseVersions, updateRevision } from './release.repository.js';

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
  for (const r of await selectReleaseVersions(db, ids)) {
    let revision = r.is_final ? r.revision : null;
    if (r.is_final && revision === null) {
      await advisoryXactLock(db, REVISION_LOCK, r.app);
      revision = await selectNextRevision(db, r.app, r.semver, r.id);
    }
    const raw = releaseRawVersion({ semver: r.semver, is_final: r.is_final, revision, created_at: r.created_at });
    if (revision !== r.revision || raw !== r.raw_version) {
      await updateRevision(db, r.id, revision, raw);
    }
  }
}
