import type { ReleaseStatus, Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The releases' hand-written SQL; the rules call these. */

/** Whether release `target` is a successful release of every one of the fleets `ids` (`undefined`: no such release). */
export async function isSuccessfulReleaseOfFleets(db: Db, target: unknown, ids: readonly number[]): Promise<boolean | undefined> {
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT r.status = 'success' AND r.belongs_to__application = ALL($2::int[]) AS ok FROM release r WHERE r.id = $1`,
    [target, ids],
  );
  return rows[0]?.ok;
}

/** The user whose actor is `actorId`, if any. */
export async function selectUserIdOfActor(db: Db, actorId: number | null): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM "user" WHERE actor = $1', [actorId]);
  return rows[0]?.id;
}

/** Whether one of the releases is a fleet's target or a device's pin. */
export async function isTargetOrPin(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM application WHERE should_be_running__release = ANY($1::int[])
     UNION ALL
     SELECT 1 FROM device WHERE is_pinned_on__release = ANY($1::int[])
     LIMIT 1`,
    [ids],
  );
  return rowCount > 0;
}

/** Whether one of the releases is final. */
export async function anyFinal(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM release WHERE id = ANY($1::int[]) AND is_final LIMIT 1', [ids]);
  return rowCount > 0;
}

/** Whether one of the image-release links joins an image of a service of another fleet than the release's. */
export async function linksImageOfOtherFleet(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM image__is_part_of__release ir
       JOIN image i ON i.id = ir.image
       JOIN service s ON s.id = i.is_a_build_of__service
       JOIN release r ON r.id = ir.is_part_of__release
      WHERE ir.id = ANY($1::int[]) AND s.application <> r.belongs_to__application`,
    [ids],
  );
  return rowCount > 0;
}

/** `created_at` as the driver returns it (a Date; the model's Date Time type is the wire's string). */
export type ReleaseVersionRow = Pick<Row<'release'>, 'id' | 'semver' | 'is_final' | 'revision' | 'raw_version'> & { app: number; created_at: Date };

/** The version fields of the given releases, by id. */
export async function selectReleaseVersions(db: Db, ids: readonly number[]): Promise<ReleaseVersionRow[]> {
  const { rows } = await db.query<ReleaseVersionRow>(
    `SELECT id, belongs_to__application AS app, semver, is_final, revision, created_at, raw_version
       FROM release WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

/** Takes the transaction's advisory lock `(namespace, key)`. */
export async function advisoryXactLock(db: Db, namespace: number, key: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [namespace, key]);
}

/** The next revision among the fleet's final releases of `semver`, other than release `id`. */
export async function selectNextRevision(db: Db, app: number, semver: string, id: number): Promise<number> {
  const next = await db.query<{ n: number }>(
    `SELECT coalesce(max(revision) + 1, 0)::int AS n FROM release
          WHERE belongs_to__application = $1 AND semver = $2 AND is_final AND revision IS NOT NULL AND id <> $3`,
    [app, semver, id],
  );
  return next.rows[0]!.n;
}

export async function updateRevision(db: Db, id: number, revision: number | null, rawVersion: string): Promise<void> {
  await db.query('UPDATE release SET revision = $2, raw_version = $3 WHERE id = $1', [id, revision, rawVersion]);
}

/** Clears the revision of the given releases whose semver is not `semver`. */
export async function clearRevisionUnlessSemver(db: Db, ids: readonly number[], semver: unknown): Promise<void> {
  await db.query('UPDATE release SET revision = NULL WHERE id = ANY($1::int[]) AND semver <> $2', [ids, semver]);
}

/** Status and last update of the given releases, with the database's clock. */
export async function selectReleaseStatuses(db: Db, ids: readonly number[]): Promise<{ status: ReleaseStatus; update_timestamp: Date; now: Date }[]> {
  const { rows } = await db.query<{ status: ReleaseStatus; update_timestamp: Date; now: Date }>(
    'SELECT status, update_timestamp, now() AS now FROM release WHERE id = ANY($1::int[])',
    [ids],
  );
  return rows;
}

/** Sets each tracking fleet's target to its newest final, successful, valid, passing release (not one of `excludingReleases`). */
export async function updateTrackedTargets(db: Db, applicationIds: readonly number[], excludingReleases: readonly number[]): Promise<void> {
  await db.query(
    `UPDATE application a SET should_be_running__release = latest.id
       FROM application x
       LEFT JOIN LATERAL (
         SELECT r.id FROM release r
          WHERE r.belongs_to__application = x.id AND r.status = 'success' AND r.is_final
            AND NOT r.is_invalidated AND r.is_passing_tests AND NOT (r.id = ANY($2::int[]))
          ORDER BY r.created_at DESC, r.id DESC LIMIT 1
       ) latest ON true
      WHERE a.id = x.id AND x.id = ANY($1::int[]) AND x.should_track_latest_release
        AND a.should_be_running__release IS DISTINCT FROM latest.id`,
    [applicationIds, excludingReleases],
  );
}

/** The fleets of the given releases. */
export async function selectFleetsOfReleases(db: Db, releaseIds: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ app: number }>('SELECT DISTINCT belongs_to__application AS app FROM release WHERE id = ANY($1::int[])', [releaseIds]);
  return rows.map((r) => r.app);
}
