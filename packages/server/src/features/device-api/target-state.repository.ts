import { DEVICE_IS_FROZEN_SQL, model, type Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The target state's hand-written SQL (the device poll's hot path: see target-state.ts). */

/** Name/value rows of a variable table for the given parents, in id order. */
export async function selectVariables(
  db: Db,
  table: string,
  parent: string,
  ids: readonly number[],
): Promise<{ parent: number; name: string; value: string }[]> {
  const { rows } = await db.query<{ parent: number; name: string; value: string }>(
    `SELECT "${parent}" AS parent, name, value FROM "${table}" WHERE "${parent}" = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

/** The fleet row a target state names. */
export async function selectTargetApplication(
  db: Db,
  appId: number,
): Promise<(Pick<Row<'application'>, 'uuid' | 'app_name' | 'is_host'> & { app_class: string | null }) | undefined> {
  return (
    await db.query<Pick<Row<'application'>, 'uuid' | 'app_name' | 'is_host'> & { app_class: string | null }>(
      'SELECT uuid, app_name, is_of__class AS app_class, is_host FROM application WHERE id = $1',
      [appId],
    )
  ).rows[0];
}

/** The release a target state names. */
export async function selectTargetRelease(db: Db, id: number): Promise<{ id: number; commit: string; composition: Record<string, unknown> | null } | undefined> {
  return (
    await db.query<{ id: number; commit: string; composition: Record<string, unknown> | null }>(
      'SELECT id, commit, composition FROM release WHERE id = $1',
      [id],
    )
  ).rows[0];
}

export interface ServiceRow {
  service_id: number;
  service_name: string;
  image_id: number;
  location: string;
  content_hash: string | null;
  contract: unknown;
}

/** A release's services with their images, by service name. */
export async function selectReleaseServices(db: Db, releaseId: number): Promise<ServiceRow[]> {
  return (
    await db.query<ServiceRow>(
      `SELECT s.id AS service_id, s.service_name, i.id AS image_id, i.is_stored_at__image_location AS location,
              i.content_hash, i.contract
         FROM image__is_part_of__release ri
         JOIN image i ON i.id = ri.image
         JOIN service s ON s.id = i.is_a_build_of__service
        WHERE ri.is_part_of__release = $1
        ORDER BY s.service_name`,
      [releaseId],
    )
  ).rows;
}

export interface DeviceStateRow {
  id: number;
  uuid: string;
  device_name: string;
  app_id: number;
  target: number | null;
  supervisor_release: number | null;
  supervisor_app: number | null;
  host_release: number | null;
  host_app: number | null;
  config: [string, string][] | null;
  env: [string, string][] | null;
  service_env: [number, string, string][] | null;
}

const has = (table: string) => table in model;
/** One query for everything of the device's own: its row, its config and env vars, its per-service env. */
const DEVICE_STATE_SQL = `
  SELECT d.id, d.uuid, d.device_name, d.belongs_to__application AS app_id,
         CASE WHEN $2::boolean AND (${DEVICE_IS_FROZEN_SQL.replaceAll('{row}', 'd')}) THEN d.is_running__release
              ELSE COALESCE(d.is_pinned_on__release, a.should_be_running__release) END AS target,
         d.should_be_managed_by__release AS supervisor_release,
         (SELECT r.belongs_to__application FROM release r WHERE r.id = d.should_be_managed_by__release) AS supervisor_app,
         d.should_be_operated_by__release AS host_release,
         (SELECT r.belongs_to__application FROM release r WHERE r.id = d.should_be_operated_by__release) AS host_app,
         ${has('device_config_variable') ? '(SELECT json_agg(json_build_array(v.name, v.value) ORDER BY v.id) FROM device_config_variable v WHERE v.device = d.id)' : 'NULL'} AS config,
         ${has('device_environment_variable') ? '(SELECT json_agg(json_build_array(v.name, v.value) ORDER BY v.id) FROM device_environment_variable v WHERE v.device = d.id)' : 'NULL'} AS env,
         ${
           has('device_service_environment_variable')
             ? `(SELECT json_agg(json_build_array(si.installs__service, v.name, v.value) ORDER BY v.id)
                   FROM device_service_environment_variable v JOIN service_install si ON si.id = v.service_install
                  WHERE si.device = d.id)`
             : 'NULL'
         } AS service_env
    FROM device d JOIN application a ON a.id = d.belongs_to__application
   WHERE d.id = $1`;

/** Everything of the device's own (`undefined` when it is gone): one prepared statement. */
export async function selectDeviceState(db: Db, deviceId: number, holdFrozen = false): Promise<DeviceStateRow | undefined> {
  return (await db.query<DeviceStateRow>(DEVICE_STATE_SQL, [deviceId, holdFrozen], { name: 'device-target-state' })).rows[0];
}
