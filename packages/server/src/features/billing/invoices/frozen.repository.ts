import { DEVICE_IS_FROZEN_SQL } from '@flotilla/model';
import type { Db } from '../../../infra/db/db.js';

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Whether any organization is frozen at all (an index-only probe: the common answer is no). */
export async function selectAnyOrganizationFrozen(db: Db): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM organization WHERE is_frozen LIMIT 1');
  return rows.length > 0;
}

/** The distinct values of `fk` (a foreign key column of the trusted PARENT table in frozen.ts) of rows `ids`. */
export async function selectParentIds(db: Db, resource: string, fk: string, ids: readonly number[]): Promise<(number | null)[]> {
  const { rows } = await db.query<{ p: number | null }>(`SELECT DISTINCT ${ident(fk)} AS p FROM ${ident(resource)} WHERE id = ANY($1::integer[])`, [ids]);
  return rows.map((r) => r.p);
}

export async function selectOrganizationsOfFleets(db: Db, applications: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ o: number }>('SELECT DISTINCT organization AS o FROM application WHERE id = ANY($1::integer[])', [applications]);
  return rows.map((r) => r.o);
}

export async function selectAnyFrozenAmong(db: Db, organizations: readonly number[]): Promise<boolean> {
  if (organizations.length === 0) return false;
  const { rows } = await db.query('SELECT 1 FROM organization WHERE id = ANY($1::integer[]) AND is_frozen LIMIT 1', [organizations]);
  return rows.length > 0;
}

export async function selectIsDeviceActor(db: Db, actorId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM device WHERE actor = $1', [actorId]);
  return rows.length > 0;
}

export async function selectDeviceIdsByUuid(db: Db, uuids: readonly string[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM device WHERE uuid = ANY($1::text[])', [uuids]);
  return rows.map((r) => r.id);
}

/** The fleets of some organizations. */
export async function selectFleetsOfOrganizations(db: Db, organizations: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM application WHERE organization = ANY($1::integer[])', [organizations]);
  return rows.map((r) => r.id);
}

/** Of devices `ids`, those that are frozen (`device.is_frozen`), with whether their organization is. */
export async function selectFrozenDevices(db: Db, ids: readonly number[]): Promise<{ id: number; organization_frozen: boolean }[]> {
  const { rows } = await db.query<{ id: number; organization_frozen: boolean }>(
    `SELECT d.id, o.is_frozen AS organization_frozen
       FROM device d JOIN application a ON a.id = d.belongs_to__application JOIN organization o ON o.id = a.organization
      WHERE d.id = ANY($1::integer[]) AND (${DEVICE_IS_FROZEN_SQL.replaceAll('{row}', 'd')})`,
    [ids],
  );
  return rows;
}
