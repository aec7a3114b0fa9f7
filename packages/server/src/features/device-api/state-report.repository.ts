import type { Db } from '../../infra/db/db.js';

/** The state reports' hand-written SQL (v3 and v2 reports, their batches, poll heartbeats). */

/** A device row as the report needs it, locked for the report's transaction. */
export interface ReportDevice {
  id: number;
  uuid: string;
  app: number;
  app_uuid: string;
  target: number | null;
  metrics_due: boolean;
}

/** Locks the rows of `ids` in id order; `metrics_due` when the last metrics are older than `metricsIntervalSeconds`. */
export async function selectReportDevicesForUpdate(db: Db, ids: readonly number[], metricsIntervalSeconds: number): Promise<ReportDevice[]> {
  const { rows } = await db.query<ReportDevice>(
    `SELECT d.id, d.uuid, d.belongs_to__application AS app, a.uuid AS app_uuid,
            COALESCE(d.is_pinned_on__release, a.should_be_running__release) AS target,
            (d.metrics_reported_at IS NULL OR d.metrics_reported_at <= now() - make_interval(secs => $2)) AS metrics_due
       FROM device d JOIN application a ON a.id = d.belongs_to__application
      WHERE d.id = ANY($1::int[]) ORDER BY d.id FOR UPDATE OF d`,
    [ids, metricsIntervalSeconds],
    { name: 'state-report-lock' },
  );
  return rows;
}

/** A reported device column and the SQL type its JSON text is cast to (none: text). */
export interface ReportedColumn {
  name: string;
  cast?: string;
}

/** One device's reported values (keyed by column) and whether its metrics are written now. */
export interface ReportedValues {
  id: number;
  fields: Record<string, unknown>;
  metrics: boolean;
}

/**
 * Writes the reported columns of many devices in one statement: each row sets only the
 * columns its report sent, and `metrics_reported_at` when its metrics are written.
 */
export async function updateReportedColumns(db: Db, columns: readonly ReportedColumn[], rows: readonly ReportedValues[]): Promise<void> {
  const sets = columns.map(({ name: f, cast }) => {
    const v = cast ? `(v.r->>'${f}')::${cast}` : `(v.r->>'${f}')`;
    return `"${f}" = CASE WHEN v.r ? '${f}' THEN ${v} ELSE d."${f}" END`;
  });
  sets.push('metrics_reported_at = CASE WHEN v.m THEN now() ELSE d.metrics_reported_at END');
  await db.query(
    `UPDATE device d SET ${sets.join(', ')}
       FROM unnest($1::int[], $2::jsonb[], $3::boolean[]) AS v(id, r, m)
      WHERE d.id = v.id`,
    [rows.map((w) => w.id), rows.map((w) => JSON.stringify(w.fields)), rows.map((w) => w.metrics)],
  );
}

/** The images of the fleet's releases of `commit` for the named services, successful and newest releases first. */
export async function selectReleaseServiceImages(
  db: Db,
  app: number,
  commit: string,
  names: readonly string[],
): Promise<{ release: number; service: number; service_name: string; image: number }[]> {
  const { rows } = await db.query<{ release: number; service: number; service_name: string; image: number }>(
    `SELECT r.id AS release, s.id AS service, s.service_name, i.id AS image
         FROM release r
         JOIN image__is_part_of__release ri ON ri.is_part_of__release = r.id
         JOIN image i ON i.id = ri.image
         JOIN service s ON s.id = i.is_a_build_of__service
        WHERE r.belongs_to__application = $1 AND r.commit = $2 AND s.service_name = ANY($3::text[])
        ORDER BY (r.status = 'success') DESC, r.id DESC`,
    [app, commit, names],
  );
  return rows;
}

/** Marks the device's image installs of images other than `seen` deleted. */
export async function markOtherImageInstallsDeleted(db: Db, deviceId: number, seen: readonly number[]): Promise<void> {
  await db.query(`UPDATE image_install SET status = 'deleted' WHERE device = $1 AND NOT (installs__image = ANY($2::int[])) AND status <> 'deleted'`, [
    deviceId,
    seen,
  ]);
}

/** Sets the device's running release to `target` once every image of that release is installed and running. */
export async function markRunningReleaseWhenAllRunning(db: Db, deviceId: number, target: number): Promise<void> {
  await db.query(
    `UPDATE device d SET is_running__release = $2
      WHERE d.id = $1 AND d.is_running__release IS DISTINCT FROM $2
        AND EXISTS (SELECT 1 FROM image__is_part_of__release ri WHERE ri.is_part_of__release = $2)
        AND NOT EXISTS (
          SELECT 1 FROM image__is_part_of__release ri
           WHERE ri.is_part_of__release = $2
             AND NOT EXISTS (
               SELECT 1 FROM image_install ii
                WHERE ii.device = d.id AND ii.installs__image = ri.image AND lower(ii.status) = 'running'))`,
    [deviceId, target],
  );
}

/** Upserts the device's image install (status, progress, providing release) and adds its service install. */
export async function upsertInstall(
  db: Db,
  deviceId: number,
  install: { image: number; release: number; service: number },
  status: string,
  progress: number | null,
): Promise<void> {
  await db.query(
    `INSERT INTO image_install (device, installs__image, is_provided_by__release, status, download_progress)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (device, installs__image) DO UPDATE
       SET status = EXCLUDED.status, download_progress = EXCLUDED.download_progress,
           is_provided_by__release = EXCLUDED.is_provided_by__release`,
    [deviceId, install.image, install.release, status, progress],
  );
  await db.query('INSERT INTO service_install (device, installs__service) VALUES ($1, $2) ON CONFLICT (device, installs__service) DO NOTHING', [
    deviceId,
    install.service,
  ]);
}

/** v2: the device runs the fleet's release of `commit` (a successful one first, then the newest). */
export async function setRunningReleaseByCommit(db: Db, deviceId: number, app: number, commit: string): Promise<void> {
  await db.query(
    `UPDATE device d SET is_running__release = r.id
           FROM (SELECT id FROM release WHERE belongs_to__application = $2 AND commit = $3
                  ORDER BY (status = 'success') DESC, id DESC LIMIT 1) r
          WHERE d.id = $1 AND d.is_running__release IS DISTINCT FROM r.id`,
    [deviceId, app, commit],
  );
}

/** v2: the given images that belong to the fleet's services, each with every release of the fleet containing it, newest first. */
export async function selectFleetImageReleases(
  db: Db,
  imageIds: readonly number[],
  app: number,
): Promise<{ image: number; service: number; release: number }[]> {
  const { rows } = await db.query<{ image: number; service: number; release: number }>(
    `SELECT ri.image, i.is_a_build_of__service AS service, ri.is_part_of__release AS release
       FROM image__is_part_of__release ri
       JOIN image i ON i.id = ri.image
       JOIN service s ON s.id = i.is_a_build_of__service
       JOIN release r ON r.id = ri.is_part_of__release
      WHERE ri.image = ANY($1::int[]) AND s.application = $2 AND r.belongs_to__application = $2
      ORDER BY ri.is_part_of__release DESC`,
    [imageIds, app],
  );
  return rows;
}

/** The savepoint each report of a batch runs in, so one report's failure leaves the others. */
export async function savepointReport(tx: Db): Promise<void> {
  await tx.query('SAVEPOINT report');
}
export async function releaseReportSavepoint(tx: Db): Promise<void> {
  await tx.query('RELEASE SAVEPOINT report');
}
export async function rollbackToReportSavepoint(tx: Db): Promise<void> {
  await tx.query('ROLLBACK TO SAVEPOINT report');
}

/**
 * Records polls as API heartbeats: `ids[i]` polled at `times[i]`. The rows are locked in id
 * order first, as the state reports lock theirs (lockReportDevices): an UPDATE joined to the
 * batch locks rows in whatever order its plan visits them, and a batch of thousands of devices
 * deadlocked with a report group commit (found by the soak, issue 21).
 */
export async function updateApiHeartbeats(db: Db, ids: readonly number[], times: readonly string[]): Promise<void> {
  await db.query(
    `WITH l AS (SELECT d.id FROM device d WHERE d.id = ANY($1::int[]) ORDER BY d.id FOR UPDATE OF d)
     UPDATE device d
              SET api_heartbeat_at = GREATEST(d.api_heartbeat_at, v.at),
                  api_heartbeat_state = 'online',
                  last_connectivity_event = CASE WHEN d.api_heartbeat_state <> 'online' THEN v.at ELSE d.last_connectivity_event END
             FROM unnest($1::int[], $2::timestamptz[]) AS v(id, at)
             JOIN l ON l.id = v.id
            WHERE d.id = v.id`,
    [ids, times],
  );
}
