import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError } from '../../infra/errors.js';
import {
  lockReportDevices,
  planReport,
  recordInstall,
  reportedDeviceFieldsSchema,
  reportedServiceSchema,
  writeReportFields,
  type ReportDevice,
} from './state-report.js';
import { selectFleetImageReleases, setRunningReleaseByCommit } from './state-report.repository.js';

/** `PATCH /device/v2/{uuid}/state`: `{ local: { <device fields>, name, is_on__commit, apps: { <appId>: { services } } }, dependent }`. */
export const v2StateReportSchema = {
  type: 'object',
  properties: {
    local: {
      type: ['object', 'null'],
      properties: {
        ...reportedDeviceFieldsSchema,
        name: { type: ['string', 'null'], maxLength: 255 },
        is_on__commit: { type: ['string', 'null'], maxLength: 255 },
        apps: {
          type: ['object', 'null'],
          propertyNames: { maxLength: 20 },
          additionalProperties: {
            type: 'object',
            properties: {
              services: {
                type: ['object', 'null'],
                propertyNames: { maxLength: 20 },
                additionalProperties: { ...reportedServiceSchema, properties: { ...reportedServiceSchema.properties, releaseId: { type: ['integer', 'null'] } } },
              },
            },
          },
        },
      },
    },
  },
} as const;

interface V2Service {
  releaseId?: unknown;
  status?: unknown;
  download_progress?: unknown;
}

/**
 * `PATCH /device/v2/{uuid}/state` (dialect §4.3 "v2"), the legacy report:
 * `{ local: { <the v3 device fields>, name, is_on__commit, apps: { <appId>: { services: {
 * <imageId>: { releaseId, status, download_progress } } } } } }`. The device fields are
 * stored as the v3 report stores them (same checks, metrics throttled alike); each listed
 * image of the device's fleet gets its image_install (and service_install) row;
 * `is_on__commit` names the release of the fleet the device runs. `name` is not stored: a
 * device is renamed through the data API, under its rules. `dependent` is ignored.
 */
export async function applyV2StateReport(db: Db, deviceId: number, uuid: string, body: unknown): Promise<void> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('The state report must be an object with a "local" state');
  const local = (body as { local?: unknown }).local;
  if (local !== undefined && (!local || typeof local !== 'object' || Array.isArray(local))) throw new BadRequestError('"local" must be an object');
  await db.tx(async (tx) => {
    const device = (await lockReportDevices(tx, [deviceId])).get(deviceId);
    if (!device) return;
    if (uuid !== device.uuid) throw new ForbiddenError('A device may only report its own state');
    if (!local) return;
    const { apps, is_on__commit: commit, name: _name, ...fields } = local as Record<string, unknown>;
    const write = planReport(device, { [device.uuid]: fields });
    if (write) await writeReportFields(tx, [write]);
    if (apps !== undefined && apps !== null) {
      if (typeof apps !== 'object' || Array.isArray(apps)) throw new BadRequestError('"apps" must be an object keyed by app id');
      const app = (apps as Record<string, unknown>)[String(device.app)];
      if (app && typeof app === 'object') await recordV2Installs(tx, device, (app as { services?: unknown }).services);
    }
    if (commit !== undefined && commit !== null) {
      if (typeof commit !== 'string') throw new BadRequestError('is_on__commit must be a string');
      await setRunningReleaseByCommit(tx, device.id, device.app, commit);
    }
  });
}

/** image_install and service_install rows for the images (of the device's fleet) the report lists. */
async function recordV2Installs(db: Db, device: ReportDevice, services: unknown): Promise<void> {
  if (!services || typeof services !== 'object' || Array.isArray(services)) return;
  const reported = new Map<number, V2Service>();
  for (const [key, value] of Object.entries(services as Record<string, unknown>)) {
    const imageId = Number(key);
    if (!Number.isInteger(imageId) || imageId <= 0 || !value || typeof value !== 'object') continue;
    reported.set(imageId, value as V2Service);
  }
  if (reported.size === 0) return;
  // Only images of this fleet's services, each with a release of this fleet that contains it.
  const rows = await selectFleetImageReleases(db, [...reported.keys()], device.app);
  const done = new Set<number>();
  for (const r of rows) {
    const s = reported.get(r.image)!;
    const wanted = typeof s.releaseId === 'number' ? s.releaseId : undefined;
    if (done.has(r.image) || (wanted !== undefined && wanted !== r.release && rows.some((x) => x.image === r.image && x.release === wanted))) continue;
    done.add(r.image);
    await recordInstall(db, device.id, r, s);
  }
}
