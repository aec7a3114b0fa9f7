import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The device API's hand-written SQL: registration, device keys, and the rows its rules look up. */

/** The device type named by slug or alias (the slug first). */
export async function selectDeviceTypeIdBySlugOrAlias(db: Db, slugOrAlias: string): Promise<number | undefined> {
  return (
    await db.query<{ id: number }>(
      `SELECT dt.id FROM device_type dt
          WHERE dt.slug = $1 OR EXISTS (SELECT 1 FROM device_type_alias x WHERE x.device_type = dt.id AND x.is_referenced_by__alias = $1)
          ORDER BY (dt.slug = $1) DESC LIMIT 1`,
      [slugOrAlias],
    )
  ).rows[0]?.id;
}

/** Whether a device with this uuid exists. */
export async function deviceUuidExists(db: Db, uuid: string): Promise<boolean> {
  const existing = await db.query('SELECT 1 FROM device WHERE uuid = $1', [uuid]);
  return existing.rowCount > 0;
}

/** The columns a registration writes. */
export interface RegisteredDevice {
  actor: unknown;
  uuid: unknown;
  device_name: unknown;
  application: number;
  deviceType: number;
  supervisor_version: string | null;
  os_version: string | null;
  os_variant: string | null;
  mac_address: string | null;
}

/** Inserts a registered device; `undefined` when its uuid is taken. */
export async function insertRegisteredDevice(db: Db, d: RegisteredDevice): Promise<{ id: number; uuid: string } | undefined> {
  const { rows } = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type, supervisor_version, os_version, os_variant, mac_address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (uuid) DO NOTHING RETURNING id, uuid`,
    [d.actor, d.uuid, d.device_name, d.application, d.deviceType, d.supervisor_version, d.os_version, d.os_variant, d.mac_address],
  );
  return rows[0];
}

/** Stores a hashed key for `actor` (a key already stored is left as it is); returns the actor that holds the key. */
export async function insertApiKey(
  db: Db,
  hashedKey: string,
  actor: number,
  details: { name: string | null; description: string | null; expiry: Date | null },
): Promise<number | undefined> {
  const { rows } = await db.query<{ actor: number }>(
    `INSERT INTO api_key (key, name, description, expiry_date, is_of__actor) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key RETURNING is_of__actor AS actor`,
    [hashedKey, details.name, details.description, details.expiry, actor],
  );
  return rows[0]?.actor;
}

/** A device's actor and fleet. */
export async function selectDeviceActorAndFleet(db: Db, deviceId: number): Promise<(Pick<Row<'device'>, 'id' | 'actor'> & { app: number }) | undefined> {
  return (await db.query<Pick<Row<'device'>, 'id' | 'actor'> & { app: number }>('SELECT id, actor, belongs_to__application AS app FROM device WHERE id = $1', [deviceId]))
    .rows[0];
}

/** Whether a device of this uuid was deleted (its tombstone). */
export async function isDeletedDeviceUuid(db: Db, uuid: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM deleted_device WHERE uuid = $1', [uuid]);
  return rowCount > 0;
}

// ---------------------------------------------------------------------------------------
// Target-state changes: which devices or fleets a write concerns

/** The `v` column of `sql` run over the given ids (`$1`). */
const valuesOf = async (tx: Db, sql: string, ids: readonly number[]): Promise<number[]> => (await tx.query<{ v: number }>(sql, [ids])).rows.map((r) => r.v);

/** The distinct non-null values of `col` in the given rows of `table`. */
export const distinctColumn = (tx: Db, table: string, col: string, ids: readonly number[]): Promise<number[]> =>
  valuesOf(tx, `SELECT DISTINCT "${col}" AS v FROM "${table}" WHERE id = ANY($1::int[]) AND "${col}" IS NOT NULL`, ids);

/** The fleets of the releases the given image-release links belong to. */
export const fleetsOfReleaseImages = (tx: Db, ids: readonly number[]): Promise<number[]> =>
  valuesOf(
    tx,
    'SELECT DISTINCT r.belongs_to__application AS v FROM image__is_part_of__release ri JOIN release r ON r.id = ri.is_part_of__release WHERE ri.id = ANY($1::int[])',
    ids,
  );

/** The fleets of the given images' services. */
export const fleetsOfImages = (tx: Db, ids: readonly number[]): Promise<number[]> =>
  valuesOf(tx, 'SELECT DISTINCT s.application AS v FROM image i JOIN service s ON s.id = i.is_a_build_of__service WHERE i.id = ANY($1::int[])', ids);

/** The fleets of the given service variables' services. */
export const fleetsOfServiceVariables = (tx: Db, ids: readonly number[]): Promise<number[]> =>
  valuesOf(tx, 'SELECT DISTINCT s.application AS v FROM service_environment_variable x JOIN service s ON s.id = x.service WHERE x.id = ANY($1::int[])', ids);

/** The devices of the given device service variables' service installs. */
export const devicesOfDeviceServiceVariables = (tx: Db, ids: readonly number[]): Promise<number[]> =>
  valuesOf(
    tx,
    'SELECT DISTINCT si.device AS v FROM device_service_environment_variable x JOIN service_install si ON si.id = x.service_install WHERE x.id = ANY($1::int[])',
    ids,
  );
