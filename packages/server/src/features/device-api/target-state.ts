import { model } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { compositionEnvironment, mergeConfig, mergeServiceEnvironment, type Vars } from './environment.js';

export interface TargetDevice {
  id: number;
  uuid: string;
  applicationId: number;
}

interface DeviceRow {
  id: number;
  uuid: string;
  device_name: string;
  app_id: number;
  app_uuid: string;
  app_name: string;
  app_class: string;
  is_host: boolean;
  target: number | null;
}

interface ServiceRow {
  service_id: number;
  service_name: string;
  image_id: number;
  location: string;
  content_hash: string | null;
  contract: unknown;
}

/** Reads name/value rows of a variable table when it exists in the model (issue 5 variables). */
async function vars(db: Db, table: string, parent: string, ids: readonly number[]): Promise<Map<number, Vars>> {
  const out = new Map<number, Vars>();
  if (!(table in model) || ids.length === 0) return out;
  const { rows } = await db.query<{ parent: number; name: string; value: string }>(
    `SELECT "${parent}" AS parent, name, value FROM "${table}" WHERE "${parent}" = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  for (const r of rows) {
    const m = out.get(r.parent) ?? {};
    m[r.name] = r.value;
    out.set(r.parent, m);
  }
  return out;
}

/**
 * The v3 target state of one device (dialect §4.2): its name, config (fleet config vars,
 * then the device's), and its fleet's app with the target release (the device's pin, else
 * the fleet's target) and that release's services with image locations and merged
 * environments. `undefined` when the device is gone.
 */
export async function buildTargetState(db: Db, deviceId: number): Promise<{ device: TargetDevice; body: unknown } | undefined> {
  const { rows } = await db.query<DeviceRow>(
    `SELECT d.id, d.uuid, d.device_name, a.id AS app_id, a.uuid AS app_uuid, a.app_name, a.is_of__class AS app_class,
            a.is_host, COALESCE(d.is_pinned_on__release, a.should_be_running__release) AS target
       FROM device d JOIN application a ON a.id = d.belongs_to__application
      WHERE d.id = $1`,
    [deviceId],
  );
  const d = rows[0];
  if (!d) return undefined;

  const appConfig = (await vars(db, 'application_config_variable', 'application', [d.app_id])).get(d.app_id);
  const deviceConfig = (await vars(db, 'device_config_variable', 'device', [d.id])).get(d.id);
  const app: Record<string, unknown> = { id: d.app_id, name: d.app_name, class: d.app_class ?? 'fleet', releases: {} };
  if (d.is_host) app.is_host = true;

  if (d.target !== null) {
    const release = (
      await db.query<{ id: number; commit: string; composition: Record<string, unknown> | null }>(
        'SELECT id, commit, composition FROM release WHERE id = $1',
        [d.target],
      )
    ).rows[0];
    if (release) {
      const services = (
        await db.query<ServiceRow>(
          `SELECT s.id AS service_id, s.service_name, i.id AS image_id, i.is_stored_at__image_location AS location,
                  i.content_hash, i.contract
             FROM image__is_part_of__release ri
             JOIN image i ON i.id = ri.image
             JOIN service s ON s.id = i.is_a_build_of__service
            WHERE ri.is_part_of__release = $1
            ORDER BY s.service_name`,
          [release.id],
        )
      ).rows;
      const serviceIds = services.map((s) => s.service_id);
      const appEnv = (await vars(db, 'application_environment_variable', 'application', [d.app_id])).get(d.app_id);
      const serviceEnv = await vars(db, 'service_environment_variable', 'service', serviceIds);
      const deviceEnv = (await vars(db, 'device_environment_variable', 'device', [d.id])).get(d.id);
      const deviceServiceEnv = new Map<number, Vars>();
      if ('device_service_environment_variable' in model && serviceIds.length) {
        const r = await db.query<{ service: number; name: string; value: string }>(
          `SELECT si.installs__service AS service, v.name, v.value
             FROM device_service_environment_variable v JOIN service_install si ON si.id = v.service_install
            WHERE si.device = $1 ORDER BY v.id`,
          [d.id],
        );
        for (const row of r.rows) deviceServiceEnv.set(row.service, { ...deviceServiceEnv.get(row.service), [row.name]: row.value });
      }
      const composed = (release.composition?.services ?? {}) as Record<string, { environment?: unknown; labels?: unknown }>;
      const out: Record<string, unknown> = {};
      for (const s of services) {
        const composedService = composed[s.service_name] ?? {};
        out[s.service_name] = {
          id: s.service_id,
          image_id: s.image_id,
          image: s.content_hash && !s.location.includes('@') ? `${s.location}@${s.content_hash}` : s.location,
          running: true,
          environment: mergeServiceEnvironment({
            image: compositionEnvironment(composedService.environment),
            application: appEnv,
            service: serviceEnv.get(s.service_id),
            device: deviceEnv,
            deviceService: deviceServiceEnv.get(s.service_id),
          }),
          labels: compositionEnvironment(composedService.labels),
          ...(s.contract ? { contract: s.contract } : {}),
          ...(composedService && Object.keys(composedService).length ? { composition: composedService } : {}),
        };
      }
      app.releases = { [release.commit]: { id: release.id, services: out } };
    }
  }

  return {
    device: { id: d.id, uuid: d.uuid, applicationId: d.app_id },
    body: { [d.uuid]: { name: d.device_name, config: mergeConfig(appConfig, deviceConfig), apps: { [d.app_uuid]: app } } },
  };
}
