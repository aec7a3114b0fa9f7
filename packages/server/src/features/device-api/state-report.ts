import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError } from '../../infra/errors.js';
import {
  markOtherImageInstallsDeletedOf,
  markRunningReleasesWhenAllRunning,
  selectReleaseServiceImagesOf,
  selectReportDevicesForUpdate,
  updateReportedColumns,
  upsertInstall,
  upsertInstalls,
  type InstallRow,
  type ReportDevice,
  type ServiceQuery,
} from './state-report.repository.js';

export type { ReportDevice } from './state-report.repository.js';

/** Reported fields stored as they come (dialect §4.3), with their column names. */
const PLAIN_FIELDS = [
  'status', 'os_version', 'os_variant', 'supervisor_version', 'provisioning_progress', 'provisioning_state',
  'ip_address', 'public_address', 'mac_address', 'update_status', 'download_progress', 'latitude', 'longitude',
] as const;
/** Metrics: stored at most once a minute per device. */
const METRIC_FIELDS = [
  'cpu_usage', 'cpu_temp', 'cpu_id', 'memory_usage', 'memory_total', 'storage_block_device', 'storage_usage', 'storage_total', 'is_undervolted',
] as const;
const INT32_MAX = 2_147_483_647;
/**
 * Numeric fields and the largest magnitude their column takes: `Integer` columns are 32-bit,
 * `Big Integer` ones are bounded by what a JSON number carries exactly. A value beyond is
 * refused (400), never handed to PostgreSQL (22003 would fail the report's transaction).
 */
const INTEGER_LIMITS: Record<string, number> = {
  provisioning_progress: INT32_MAX,
  download_progress: INT32_MAX,
  cpu_usage: INT32_MAX,
  cpu_temp: INT32_MAX,
  memory_usage: Number.MAX_SAFE_INTEGER,
  memory_total: Number.MAX_SAFE_INTEGER,
  storage_usage: Number.MAX_SAFE_INTEGER,
  storage_total: Number.MAX_SAFE_INTEGER,
};
const INTEGER_FIELDS = new Set(Object.keys(INTEGER_LIMITS));
const TEXT_LIMITS: Record<string, number> = { ip_address: 10_000, mac_address: 10_000 };
const TEXT_LIMIT = 255;

/** JSON schema of a number field of the report, bounded as its column. */
const boundedNumber = (max: number) => ({ type: ['number', 'null'], minimum: -max, maximum: max }) as const;

/** JSON schema of the device fields of a report (v3 per uuid, v2 `local`): each field bounded as its column. */
export const reportedDeviceFieldsSchema: Record<string, object> = Object.fromEntries(
  [...PLAIN_FIELDS, ...METRIC_FIELDS].map((f) => [
    f,
    f === 'is_undervolted'
      ? { type: ['boolean', 'null'] }
      : INTEGER_FIELDS.has(f)
        ? boundedNumber(INTEGER_LIMITS[f]!)
        : { type: ['string', 'number', 'null'], maxLength: 100_000 },
  ]),
);

/** JSON schema of one reported service (v3 and v2). */
export const reportedServiceSchema = {
  type: 'object',
  properties: { image: { type: 'string', maxLength: 1000 }, status: { type: ['string', 'null'], maxLength: 1000 }, download_progress: boundedNumber(INT32_MAX) },
} as const;

/** `PATCH /device/v3/state`: `{ <uuid>: { <device fields>, apps: { <app uuid>: { releases: { <commit>: { services } } } } } }`. */
export const stateReportSchema = {
  type: 'object',
  propertyNames: { maxLength: 62 },
  additionalProperties: {
    type: 'object',
    properties: {
      ...reportedDeviceFieldsSchema,
      apps: {
        type: ['object', 'null'],
        propertyNames: { maxLength: 62 },
        additionalProperties: {
          type: 'object',
          properties: {
            release_uuid: { type: ['string', 'null'], maxLength: 64 },
            releases: {
              type: ['object', 'null'],
              propertyNames: { maxLength: 64 },
              additionalProperties: {
                type: 'object',
                properties: {
                  update_status: { type: ['string', 'null'], maxLength: 255 },
                  services: { type: ['object', 'null'], propertyNames: { maxLength: 255 }, additionalProperties: reportedServiceSchema },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

export const METRICS_INTERVAL_SECONDS = 60;

export interface ReportedService {
  image?: string;
  status?: string;
  download_progress?: number | null;
}
export interface ReportedApp {
  release_uuid?: string;
  releases?: Record<string, { update_status?: string; services?: Record<string, ReportedService> }>;
}

function value(field: string, v: unknown): unknown {
  if (v === null) return null;
  if (field === 'is_undervolted') {
    if (typeof v !== 'boolean') throw new BadRequestError(`${field} must be a boolean`);
    return v;
  }
  if (INTEGER_FIELDS.has(field)) return boundedInteger(field, v, INTEGER_LIMITS[field]!);
  const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  if (text === undefined) throw new BadRequestError(`${field} must be a string`);
  return text.slice(0, TEXT_LIMITS[field] ?? TEXT_LIMIT);
}

/** A reported number as its integer column stores it; 400 beyond the column's range. */
function boundedInteger(field: string, v: unknown, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new BadRequestError(`${field} must be a number`);
  const n = Math.round(v);
  if (Math.abs(n) > max) throw new BadRequestError(`${field} is out of range (at most ${max})`);
  return n;
}

/** Locks the rows of `ids` (in id order, so concurrent batches cannot deadlock). */
export async function lockReportDevices(db: Db, ids: readonly number[]): Promise<Map<number, ReportDevice>> {
  const rows = await selectReportDevicesForUpdate(db, ids, METRICS_INTERVAL_SECONDS);
  return new Map(rows.map((r) => [r.id, r]));
}

/** What one report writes: device columns (metrics only when due) and the reported app, if any. */
export interface ReportWrite {
  device: ReportDevice;
  fields: Record<string, unknown>;
  metrics: boolean;
  app?: ReportedApp;
}

/** Checks the shape of a report before anything else (400). */
export function checkReportBody(body: unknown): asserts body is Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('The state report must be an object keyed by device uuid');
}

/**
 * The write a report asks for, for its (locked) device: `undefined` when there is nothing
 * to write or the device is gone; throws 403 for another device's uuid, 400 for a bad value.
 */
export function planReport(device: ReportDevice | undefined, body: Record<string, unknown>): ReportWrite | undefined {
  if (!device) return undefined;
  for (const uuid of Object.keys(body)) {
    if (uuid !== device.uuid) throw new ForbiddenError('A device may only report its own state');
  }
  const report = body[device.uuid];
  if (!report || typeof report !== 'object') return undefined;
  const r = report as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const f of PLAIN_FIELDS) if (f in r) fields[f] = value(f, r[f]);
  const metrics = device.metrics_due && METRIC_FIELDS.some((f) => f in r);
  if (metrics) for (const f of METRIC_FIELDS) if (f in r) fields[f] = value(f, r[f]);
  const apps = r.apps;
  const app = apps && typeof apps === 'object' ? (apps as Record<string, ReportedApp>)[device.app_uuid] : undefined;
  return { device, fields, metrics, ...(app && typeof app === 'object' ? { app } : {}) };
}

const COLUMN_TYPE: Record<string, string> = { is_undervolted: 'boolean' };
for (const f of INTEGER_FIELDS) COLUMN_TYPE[f] = 'bigint';

/**
 * Writes the device columns of many reports (at most one per device) in one statement:
 * each row sets only the fields its report sent.
 */
export async function writeReportFields(db: Db, writes: readonly ReportWrite[]): Promise<void> {
  const used = new Set<string>();
  const rows = writes.filter((w) => Object.keys(w.fields).length > 0 || w.metrics);
  for (const w of rows) for (const f of Object.keys(w.fields)) used.add(f);
  if (rows.length === 0) return;
  await updateReportedColumns(
    db,
    [...used].map((name) => ({ name, cast: COLUMN_TYPE[name] })),
    rows.map((w) => ({ id: w.device.id, fields: w.fields, metrics: w.metrics })),
  );
}

/** Checks the services a report lists (400 on a bad download progress) before anything is written. */
export function checkReportApp(write: ReportWrite): void {
  for (const release of Object.values(write.app?.releases ?? {})) {
    for (const reported of Object.values(release?.services ?? {})) installValues(reported);
  }
}

/** What an image install stores of a reported service: its status ('Unknown' when none) and download progress. */
function installValues(reported: { status?: unknown; download_progress?: unknown }): { status: string; progress: number | null } {
  const status = typeof reported.status === 'string' && reported.status ? reported.status.slice(0, 255) : 'Unknown';
  const progress = typeof reported.download_progress === 'number' ? boundedInteger('download_progress', reported.download_progress, INT32_MAX) : null;
  return { status, progress };
}

/**
 * The installs the reports list (at most one report per device) and what follows from them,
 * for every report of a group at once, in a fixed handful of statements whatever the group's
 * size (issue 21's soak: eight statements per report, one after the other, made reports queue):
 *
 * - per reported service, the image of the fleet's release of the reported commit (a
 *   successful release first, then the newest), and its image and service installs upserted;
 * - each device's other image installs marked deleted (the report lists everything on the
 *   device for this app);
 * - rule: a device runs its target release once every image of it reports 'Running'.
 */
export async function writeReportApps(db: Db, writes: readonly ReportWrite[]): Promise<void> {
  const apps = writes.filter((w) => w.app);
  if (apps.length === 0) return;
  const queries: ServiceQuery[] = [];
  const asked: { device: number; reported: ReportedService }[] = [];
  for (const w of apps) {
    for (const [commit, release] of Object.entries(w.app!.releases ?? {})) {
      for (const [name, reported] of Object.entries(release?.services ?? {})) {
        queries.push({ app: w.device.app, commit, name });
        asked.push({ device: w.device.id, reported });
      }
    }
  }
  const found = new Map<number, { release: number; service: number; image: number }>();
  for (const row of await selectReleaseServiceImagesOf(db, queries)) if (!found.has(row.query)) found.set(row.query, row);
  const installs = new Map<string, InstallRow>();
  const seen = new Map<number, number[]>(apps.map((w) => [w.device.id, []]));
  asked.forEach(({ device, reported }, i) => {
    const row = found.get(i);
    if (!row) return;
    installs.set(`${device}/${row.image}`, { device, image: row.image, release: row.release, service: row.service, ...installValues(reported) });
    seen.get(device)!.push(row.image);
  });
  await upsertInstalls(db, [...installs.values()]);
  await markOtherImageInstallsDeletedOf(db, apps.map((w) => ({ device: w.device.id, seen: seen.get(w.device.id)! })));
  await markRunningReleasesWhenAllRunning(
    db,
    apps.filter((w) => w.device.target !== null).map((w) => ({ device: w.device.id, target: w.device.target! })),
  );
}

/**
 * `PATCH /device/v3/state` (dialect §4.3) for the calling device: its reported fields, its
 * metrics (throttled), and per service of its fleet's app the image_install and
 * service_install rows; the device is running its target release once every service of
 * that release reports 'Running'. One report in its own transaction; the route groups
 * concurrent reports into one (state-report-batch.ts), which comes back here when a
 * grouped write fails.
 */
export async function applyStateReport(db: Db, deviceId: number, body: unknown): Promise<void> {
  checkReportBody(body);
  await db.tx(async (tx) => {
    const devices = await lockReportDevices(tx, [deviceId]);
    const write = planReport(devices.get(deviceId), body);
    if (!write) return;
    checkReportApp(write);
    await writeReportFields(tx, [write]);
    await writeReportApps(tx, [write]);
  });
}

/**
 * Records one reported service of a state report (v2 or v3): its image install with status
 * and download progress (upserted) and its service install.
 */
export async function recordInstall(
  db: Db,
  deviceId: number,
  install: { image: number; release: number; service: number },
  reported: { status?: unknown; download_progress?: unknown },
): Promise<void> {
  const { status, progress } = installValues(reported);
  await upsertInstall(db, deviceId, install, status, progress);
}
