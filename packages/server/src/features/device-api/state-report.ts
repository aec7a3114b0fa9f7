import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError } from '../../infra/errors.js';

/** Reported fields stored as they come (dialect §4.3), with their column names. */
const PLAIN_FIELDS = [
  'status', 'os_version', 'os_variant', 'supervisor_version', 'provisioning_progress', 'provisioning_state',
  'ip_address', 'public_address', 'mac_address', 'update_status', 'download_progress', 'latitude', 'longitude',
] as const;
/** Metrics: stored at most once a minute per device. */
const METRIC_FIELDS = [
  'cpu_usage', 'cpu_temp', 'cpu_id', 'memory_usage', 'memory_total', 'storage_block_device', 'storage_usage', 'storage_total', 'is_undervolted',
] as const;
const INTEGER_FIELDS = new Set(['provisioning_progress', 'download_progress', 'cpu_usage', 'cpu_temp', 'memory_usage', 'memory_total', 'storage_usage', 'storage_total']);
const TEXT_LIMITS: Record<string, number> = { ip_address: 10_000, mac_address: 10_000 };

export const METRICS_INTERVAL_SECONDS = 60;

interface ReportedService {
  image?: string;
  status?: string;
  download_progress?: number | null;
}
interface ReportedApp {
  release_uuid?: string;
  releases?: Record<string, { update_status?: string; services?: Record<string, ReportedService> }>;
}

function value(field: string, v: unknown): unknown {
  if (v === null) return null;
  if (field === 'is_undervolted') {
    if (typeof v !== 'boolean') throw new BadRequestError(`${field} must be a boolean`);
    return v;
  }
  if (INTEGER_FIELDS.has(field)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new BadRequestError(`${field} must be a number`);
    return Math.round(v);
  }
  const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  if (text === undefined) throw new BadRequestError(`${field} must be a string`);
  return text.slice(0, TEXT_LIMITS[field] ?? 255);
}

/**
 * `PATCH /device/v3/state` (dialect §4.3) for the calling device: its reported fields, its
 * metrics (throttled), and per service of its fleet's app the image_install and
 * service_install rows; the device is running its target release once every service of
 * that release reports 'Running'.
 */
export async function applyStateReport(db: Db, deviceId: number, body: unknown): Promise<void> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('The state report must be an object keyed by device uuid');
  await db.tx(async (tx) => {
    const device = (
      await tx.query<{ id: number; uuid: string; app: number; app_uuid: string; target: number | null; metrics_due: boolean }>(
        `SELECT d.id, d.uuid, d.belongs_to__application AS app, a.uuid AS app_uuid,
                COALESCE(d.is_pinned_on__release, a.should_be_running__release) AS target,
                (d.metrics_reported_at IS NULL OR d.metrics_reported_at <= now() - make_interval(secs => $2)) AS metrics_due
           FROM device d JOIN application a ON a.id = d.belongs_to__application WHERE d.id = $1 FOR UPDATE OF d`,
        [deviceId, METRICS_INTERVAL_SECONDS],
      )
    ).rows[0];
    if (!device) return;
    for (const uuid of Object.keys(body)) {
      if (uuid !== device.uuid) throw new ForbiddenError('A device may only report its own state');
    }
    const report = (body as Record<string, unknown>)[device.uuid];
    if (!report || typeof report !== 'object') return;
    const r = report as Record<string, unknown>;

    const sets: string[] = [];
    const params: unknown[] = [device.id];
    const put = (field: string) => {
      if (!(field in r)) return;
      params.push(value(field, r[field]));
      sets.push(`"${field}" = $${params.length}`);
    };
    PLAIN_FIELDS.forEach(put);
    if (device.metrics_due && METRIC_FIELDS.some((f) => f in r)) {
      METRIC_FIELDS.forEach(put);
      sets.push('metrics_reported_at = now()');
    }
    if (sets.length) await tx.query(`UPDATE device SET ${sets.join(', ')} WHERE id = $1`, params);

    const apps = r.apps;
    if (!apps || typeof apps !== 'object') return;
    const app = (apps as Record<string, ReportedApp>)[device.app_uuid];
    if (!app || typeof app !== 'object') return;
    await recordInstalls(tx, device, app);
    await markRunningRelease(tx, device);
  });
}

async function recordInstalls(db: Db, device: { id: number; app: number }, app: ReportedApp): Promise<void> {
  const seen: number[] = [];
  for (const [commit, release] of Object.entries(app.releases ?? {})) {
    const services = release?.services ?? {};
    const names = Object.keys(services);
    if (names.length === 0) continue;
    const { rows } = await db.query<{ release: number; service: number; service_name: string; image: number }>(
      `SELECT r.id AS release, s.id AS service, s.service_name, i.id AS image
         FROM release r
         JOIN image__is_part_of__release ri ON ri.is_part_of__release = r.id
         JOIN image i ON i.id = ri.image
         JOIN service s ON s.id = i.is_a_build_of__service
        WHERE r.belongs_to__application = $1 AND r.commit = $2 AND s.service_name = ANY($3::text[])
        ORDER BY (r.status = 'success') DESC, r.id DESC`,
      [device.app, commit, names],
    );
    const done = new Set<string>();
    for (const row of rows) {
      if (done.has(row.service_name)) continue;
      done.add(row.service_name);
      const s = services[row.service_name]!;
      const status = typeof s.status === 'string' && s.status ? s.status.slice(0, 255) : 'Unknown';
      const progress = typeof s.download_progress === 'number' ? Math.round(s.download_progress) : null;
      await db.query(
        `INSERT INTO image_install (device, installs__image, is_provided_by__release, status, download_progress)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (device, installs__image) DO UPDATE
           SET status = EXCLUDED.status, download_progress = EXCLUDED.download_progress,
               is_provided_by__release = EXCLUDED.is_provided_by__release`,
        [device.id, row.image, row.release, status, progress],
      );
      await db.query(
        'INSERT INTO service_install (device, installs__service) VALUES ($1, $2) ON CONFLICT (device, installs__service) DO NOTHING',
        [device.id, row.service],
      );
      seen.push(row.image);
    }
  }
  // The report lists everything on the device for this app: other images are gone.
  await db.query(`UPDATE image_install SET status = 'deleted' WHERE device = $1 AND NOT (installs__image = ANY($2::int[])) AND status <> 'deleted'`, [
    device.id,
    seen,
  ]);
}

/** Rule: the device runs its target release once every image of it reports 'Running'. */
async function markRunningRelease(db: Db, device: { id: number; target: number | null }): Promise<void> {
  if (device.target === null) return;
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
    [device.id, device.target],
  );
}
