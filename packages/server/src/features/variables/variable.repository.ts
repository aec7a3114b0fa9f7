import type { ConfigVarProperty, Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The variables' hand-written SQL; the rules and `/config/vars` call these. */

export async function serviceExists(db: Db, id: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM service WHERE id = $1', [id]);
  return rowCount !== 0;
}

export async function serviceInstallExists(db: Db, id: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM service_install WHERE id = $1', [id]);
  return rowCount !== 0;
}

/** Whether one of the device service variables is for a service of another fleet than its device's. */
export async function hasServiceOfOtherFleet(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM device_service_environment_variable v
       JOIN service_install si ON si.id = v.service_install
       JOIN service s ON s.id = si.installs__service
       JOIN device d ON d.id = si.device
      WHERE v.id = ANY($1::int[]) AND s.application <> d.belongs_to__application`,
    [ids],
  );
  return rowCount > 0;
}

/** The devices of the given device config variables that set one of `names` to '1'. */
export async function selectDevicesSettingVariables(
  db: Db,
  ids: readonly number[],
  names: readonly string[],
): Promise<Pick<Row<'device'>, 'os_variant' | 'supervisor_version'>[]> {
  const { rows } = await db.query<Pick<Row<'device'>, 'os_variant' | 'supervisor_version'>>(
    `SELECT d.os_variant, d.supervisor_version
       FROM device_config_variable v JOIN device d ON d.id = v.device
      WHERE v.id = ANY($1::int[]) AND v.name = ANY($2::text[]) AND v.value = '1'`,
    [ids, names],
  );
  return rows;
}

/** The configuration-variable schema of the device type known by this alias, if any. */
export async function selectConfigVariableSchema(db: Db, alias: string): Promise<Record<string, ConfigVarProperty> | null | undefined> {
  const { rows } = await db.query<{ vars: Record<string, ConfigVarProperty> | null }>(
    `SELECT dt.contract -> 'configVariables' AS vars
             FROM device_type dt JOIN device_type_alias a ON a.device_type = dt.id
            WHERE a.is_referenced_by__alias = $1`,
    [alias],
  );
  return rows[0]?.vars;
}

/** The device type (slug and configuration-variable schema) of device `deviceId`. */
export async function selectDeviceTypeOfDevice(
  db: Db,
  deviceId: number,
): Promise<{ slug: string; schema: Record<string, ConfigVarProperty> | null } | undefined> {
  const { rows } = await db.query<{ slug: string; schema: Record<string, ConfigVarProperty> | null }>(
    `SELECT dt.slug, dt.contract -> 'configVariables' AS schema
       FROM device d JOIN device_type dt ON dt.id = d.is_of__device_type
      WHERE d.id = $1`,
    [deviceId],
  );
  return rows[0];
}

/** SQL: the property named by `name` in the schema of the device type `dt`; a legacy RESIN_ name is described by its BALENA_ twin. */
const propertyOf = (name: string) =>
  `COALESCE(dt.contract -> 'configVariables' -> ${name},
            CASE WHEN ${name} LIKE 'RESIN\\_%' THEN dt.contract -> 'configVariables' -> ('BALENA_' || substr(${name}, 7)) END)`;

/** The property of configuration variable `name` in the schema of the device type of fleet or device `parent` (null: none). */
export async function selectConfigPropertyOfParent(
  db: Db,
  resource: 'application_config_variable' | 'device_config_variable',
  parent: number,
  name: string,
): Promise<ConfigVarProperty | null> {
  const from =
    resource === 'application_config_variable'
      ? 'application p JOIN device_type dt ON dt.id = p.is_for__device_type'
      : 'device p JOIN device_type dt ON dt.id = p.is_of__device_type';
  const { rows } = await db.query<{ property: ConfigVarProperty | null }>(`SELECT ${propertyOf('$2::text')} AS property FROM ${from} WHERE p.id = $1`, [parent, name]);
  return rows[0]?.property ?? null;
}

/** The given configuration variables with the property of their name in their device type's schema (null: none). */
export async function selectConfigValuesWithSchema(
  db: Db,
  resource: 'application_config_variable' | 'device_config_variable',
  ids: readonly number[],
): Promise<{ name: string; value: string; property: ConfigVarProperty | null }[]> {
  const from =
    resource === 'application_config_variable'
      ? 'application_config_variable v JOIN application p ON p.id = v.application JOIN device_type dt ON dt.id = p.is_for__device_type'
      : 'device_config_variable v JOIN device p ON p.id = v.device JOIN device_type dt ON dt.id = p.is_of__device_type';
  const { rows } = await db.query<{ name: string; value: string; property: ConfigVarProperty | null }>(
    `SELECT v.name, v.value, ${propertyOf('v.name')} AS property FROM ${from} WHERE v.id = ANY($1::int[]) ORDER BY v.id`,
    [ids],
  );
  return rows;
}
