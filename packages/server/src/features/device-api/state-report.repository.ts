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

/** One reported service of a group's reports, asked by fleet, commit and service name. */
export interface ServiceQuery {
  app: number;
  commit: string;
  name: string;
}

/**
 * The images of many reported services at once: for query `i` (0-based) the rows of the
 * fleet's releases of its commit for its service name, successful and newest releases first
 * .
 */
export async function selectReleaseServiceImagesOf(
  db: Db,
  queries: readonly ServiceQuery[],
): Promise<{ query: number; release: number; service: number; image: number }[]> {
  if (queries.length === 0) return [];
  const { rows } = await db.query<{ query: number; release: number; service: number; image: number }>(
    `SELECT (q.ord - 1)::int AS query, r.id AS release, s.id AS service, i.id AS image
       FROM unnest($1::int[], $2::text[], $3::text[]) WITH ORDINALITY AS q(app, commit, name, ord)
       JOIN release r ON r.belongs_to__application = q.app AND r.commit = q.commit
       JOIN image__is_part_of__release ri ON ri.is_part_of__release = r.id
       JOIN image i ON i.id = ri.image
       JOIN service s ON s.id = i.is_a_build_of__service AND s.service_name = q.name
      ORDER BY q.ord, (r.status = 'success') DESC, r.id DESC`,
    [queries.map((q) => q.app), queries.map((q) => q.commit), queries.map((q) => q.name)],
  );
  return rows;
}

/** An image install to write: the device, what it installs, and what the device reported of it. */
export interface InstallRow {
  device: number;
  image: number;
  release: number;
  service: number;
  status: string;
  progress: number | null;
}

/**
 * Upserts many image installs (status, progress, providing release) and adds their service
 * installs, in two statements. At most one row per device and image (the caller's last wins).
 */
export async function upsertInstalls(db: Db, installs: readonly InstallRow[]): Promise<void> {
  if (installs.length === 0) return;
  await db.query(
    `INSERT INTO image_install (device, installs__image, is_provided_by__release, status, download_progress)
     SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[])
     ON CONFLICT (device, installs__image) DO UPDATE
       SET status = EXCLUDED.status, download_progress = EXCLUDED.download_progress,
           is_provided_by__release = EXCLUDED.is_provided_by__release`,
    [installs.map((r) => r.device), installs.map((r) => r.image), installs.map((r) => r.release), installs.map((r) => r.status), installs.map((r) => r.progress)],
  );
  await db.query(
    `INSERT INTO service_install (device, installs__service)
     SELECT DISTINCT * FROM unnest($1::int[], $2::int[])
     ON CONFLICT (device, installs__service) DO NOTHING`,
    [installs.map((r) => r.device), installs.map((r) => r.service)],
  );
}

/** For each device, marks its image installs of images other than its `seen` deleted. */
export async function markOtherImageInstallsDeletedOf(db: Db, devices: readonly { device: number; seen: readonly number[] }[]): Promise<void> {
  if (devices.length === 0) return;
  await db.query(
    `UPDATE image_install ii SET status = 'deleted'
       FROM unnest($1::int[], $2::text[]) AS v(device, seen)
      WHERE ii.device = v.device AND NOT (ii.installs__image = ANY(v.seen::int[])) AND ii.status <> 'deleted'`,
    [devices.map((d) => d.device), devices.map((d) => `{${d.seen.join(',')}}`)],
  );
}

/** Sets each device's running release to its `target` once every image of that release is installed and running (one statement for all). */
export async function markRunningReleasesWhenAllRunning(db: Db, devices: readonly { device: number; target: number }[]): Promise<void> {
  if (devices.length === 0) return;
  await db.query(
    `UPDATE device d SET is_running__release = v.target
       FROM unnest($1::int[], $2::int[]) AS v(id, target)
      WHERE d.id = v.id AND d.is_running__release IS DISTINCT FROM v.target
        AND EXISTS (SELECT 1 FROM image__is_part_of__release ri WHERE ri.is_part_of__release = v.target)
        AND NOT EXISTS (
          SELECT 1 FROM image__is_part_of__release ri
           WHERE ri.is_part_of__release = v.target
             AND NOT EXISTS (
               SELECT 1 FROM image_install ii
                WHERE ii.device = d.id AND ii.installs__image = ri.image AND lower(ii.status) = 'running'))`,
    [devices.map((d) => d.device), devices.map((d) => d.target)],
  );
}
