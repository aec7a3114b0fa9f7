import { OS_RELEASE_TAGS, RELEASE_POLICY_TAG, SUPERVISOR_BLOCK_SUFFIX, type Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The devices' hand-written SQL (rules call these; the `/v7` engine does the rest). */

export interface ArchitectureMismatchRow {
  device_type: string;
  device_arch: string;
  fleet: string;
  fleet_arch: string;
}

/** The given devices whose type's CPU architecture differs from their fleet's default type's. */
export async function selectArchitectureMismatches(db: Db, ids: readonly number[]): Promise<ArchitectureMismatchRow[]> {
  const { rows } = await db.query<ArchitectureMismatchRow>(
    `SELECT DISTINCT dt.slug AS device_type, da.slug AS device_arch, a.slug AS fleet, fa.slug AS fleet_arch
       FROM device d
       JOIN device_type dt ON dt.id = d.is_of__device_type
       JOIN cpu_architecture da ON da.id = dt.is_of__cpu_architecture
       JOIN application a ON a.id = d.belongs_to__application
       JOIN device_type fdt ON fdt.id = a.is_for__device_type
       JOIN cpu_architecture fa ON fa.id = fdt.is_of__cpu_architecture
      WHERE d.id = ANY($1::int[]) AND da.id <> fa.id`,
    [ids],
  );
  return rows;
}

/** Activity and link state of the given devices, by id. */
export async function selectDeviceActivity(db: Db, ids: readonly number[]): Promise<Pick<Row<'device'>, 'is_active' | 'is_online'>[]> {
  const { rows } = await db.query<Pick<Row<'device'>, 'is_active' | 'is_online'>>(
    'SELECT is_active, is_online FROM device WHERE id = ANY($1::int[]) ORDER BY id',
    [ids],
  );
  return rows;
}

/** The host OS and supervisor release fields, each with the condition its release's fleet must meet. */
const OS_RELEASE_ALLOWED = {
  should_be_operated_by__release: `a.is_public AND a.is_host AND a.is_for__device_type = d.is_of__device_type`,
  should_be_managed_by__release: `a.is_public AND NOT a.is_host AND a.is_of__class = 'block' AND right(lower(a.app_name), ${SUPERVISOR_BLOCK_SUFFIX.length}) = '${SUPERVISOR_BLOCK_SUFFIX}'
      AND (SELECT is_of__cpu_architecture FROM device_type WHERE id = a.is_for__device_type)
        = (SELECT is_of__cpu_architecture FROM device_type WHERE id = d.is_of__device_type)`,
} as const;

export type OsReleaseField = keyof typeof OS_RELEASE_ALLOWED;

export interface OsReleaseTarget {
  os_version: string | null;
  supervisor_version: string | null;
  raw_version: string;
  /** The release's fleet is one the field allows, and the release is successful, final and valid. */
  allowed: boolean;
  /** Of an ESR host-OS fleet (fleet tag release-policy = esr). */
  esr: boolean;
  based_on: string | null;
}

/** Per given device with a release in `field`: its reported versions and what the release is. */
export async function selectOsReleaseTargets(db: Db, field: OsReleaseField, ids: readonly number[]): Promise<OsReleaseTarget[]> {
  const { rows } = await db.query<OsReleaseTarget>(
    `SELECT d.os_version, d.supervisor_version, r.raw_version,
            (${OS_RELEASE_ALLOWED[field]}) AND r.status = 'success' AND r.is_final AND NOT r.is_invalidated AS allowed,
            EXISTS (SELECT 1 FROM application_tag t WHERE t.application = a.id AND t.tag_key = '${RELEASE_POLICY_TAG}' AND lower(t.value) = 'esr') AS esr,
            (SELECT value FROM release_tag t WHERE t.release = r.id AND t.tag_key = '${OS_RELEASE_TAGS.basedOn}') AS based_on
       FROM device d JOIN release r ON r.id = d."${field}" JOIN application a ON a.id = r.belongs_to__application
      WHERE d.id = ANY($1::int[]) ORDER BY d.id`,
    [ids],
  );
  return rows;
}

/** Unpins the given devices from releases of a fleet they no longer belong to. */
export async function unpinFromOtherFleets(db: Db, ids: readonly number[]): Promise<void> {
  await db.query(
    `UPDATE device d SET is_pinned_on__release = NULL
       FROM release r
      WHERE d.id = ANY($1::int[]) AND r.id = d.is_pinned_on__release AND r.belongs_to__application <> d.belongs_to__application`,
    [ids],
  );
}

/** Whether one of the given devices is pinned to a release that is not a successful one of its own fleet. */
export async function hasBadPin(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM device d JOIN release r ON r.id = d.is_pinned_on__release
      WHERE d.id = ANY($1::int[]) AND (r.belongs_to__application <> d.belongs_to__application OR r.status <> 'success')
      LIMIT 1`,
    [ids],
  );
  return rowCount > 0;
}

/** Whether one of the given devices runs a release of another fleet. */
export async function runsReleaseOfOtherFleet(db: Db, ids: readonly number[]): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM device d JOIN release r ON r.id = d.is_running__release
      WHERE d.id = ANY($1::int[]) AND r.belongs_to__application <> d.belongs_to__application
      LIMIT 1`,
    [ids],
  );
  return rowCount > 0;
}

/** Which of `names` devices of fleet `fleetId` already have. */
export async function selectDeviceNamesTaken(db: Db, fleetId: number, names: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ device_name: string }>(
    'SELECT device_name FROM device WHERE belongs_to__application = $1 AND device_name = ANY($2::text[])',
    [fleetId, names],
  );
  return new Set(rows.map((r) => r.device_name));
}
