import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The fleets' (`application` rows') hand-written SQL; the rules call these. */

/** The id of the default application type (`microservices`), if seeded. */
export async function selectDefaultApplicationTypeId(db: Db): Promise<number | undefined> {
  const t = await db.query<{ id: number }>(`SELECT id FROM application_type WHERE slug = 'microservices'`);
  return t.rows[0]?.id;
}

/** An organization's handle, if the organization exists. */
export async function selectOrganizationHandle(db: Db, organization: unknown): Promise<string | undefined> {
  const { rows } = await db.query<{ handle: string }>('SELECT handle FROM organization WHERE id = $1', [organization]);
  return rows[0]?.handle;
}

/** Sets each given fleet's slug to `orghandle/app_name` in lowercase. */
export async function updateSlugs(db: Db, ids: readonly number[]): Promise<void> {
  await db.query(
    `UPDATE application a SET slug = lower(o.handle || '/' || a.app_name)
       FROM organization o WHERE o.id = a.organization AND a.id = ANY($1::int[])`,
    [ids],
  );
}

/**
 * Whether the actor is not an administrator of one of the organizations: the given fleets'
 * current organizations and `target`.
 */
export async function lacksAdministratorOfOrganizations(db: Db, ids: readonly number[], target: unknown, actorId: number | null): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM (SELECT organization AS org FROM application WHERE id = ANY($1) UNION SELECT $2::int) x
      WHERE NOT EXISTS (
        SELECT 1 FROM organization_membership m
          JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
          JOIN "user" u ON u.id = m."user"
         WHERE m.is_member_of__organization = x.org AND u.actor = $3)`,
    [ids, target, actorId],
  );
  return rowCount > 0;
}

/**
 * Whether one of the given fleets has the actor as administrator neither through its
 * organization, nor a fleet membership, nor a team's access.
 */
export async function lacksFleetAdministrator(db: Db, ids: readonly number[], actorId: number | null): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a
      WHERE a.id = ANY($1::int[])
        AND NOT EXISTS (
          SELECT 1 FROM organization_membership m
            JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
            JOIN "user" u ON u.id = m."user"
           WHERE m.is_member_of__organization = a.organization AND u.actor = $2)
        AND NOT EXISTS (
          SELECT 1 FROM user_application_membership fm
            JOIN application_membership_role r ON r.id = fm.application_membership_role AND r.name = 'administrator'
            JOIN "user" u ON u.id = fm."user"
           WHERE fm.is_member_of__application = a.id AND u.actor = $2)
        AND NOT EXISTS (
          SELECT 1 FROM team_application_access ta
            JOIN application_membership_role r ON r.id = ta.application_membership_role AND r.name = 'administrator'
            JOIN team_membership tm ON tm.is_member_of__team = ta.team
            JOIN "user" u ON u.id = tm."user"
           WHERE ta.grants_access_to__application = a.id AND u.actor = $2)`,
    [ids, actorId],
  );
  return rowCount > 0;
}

/** Whether one of the given fleets' default device type has another CPU architecture than `deviceType`. */
export async function hasOtherArchitectureThan(db: Db, ids: readonly number[], deviceType: unknown): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a
       JOIN device_type cur ON cur.id = a.is_for__device_type
       JOIN device_type nxt ON nxt.id = $2
      WHERE a.id = ANY($1::int[]) AND nxt.is_of__cpu_architecture <> cur.is_of__cpu_architecture
      LIMIT 1`,
    [ids, deviceType],
  );
  return rowCount > 0;
}

/** A device type's name and contract. */
export async function selectDeviceTypeContract(db: Db, id: number): Promise<Pick<Row<'device_type'>, 'name' | 'contract'> | undefined> {
  const { rows } = await db.query<Pick<Row<'device_type'>, 'name' | 'contract'>>('SELECT name, contract FROM device_type WHERE id = $1', [id]);
  return rows[0];
}

/** Whether an application type supports multiple containers (undefined when there is no such type). */
export async function selectApplicationTypeMulticontainer(db: Db, id: number): Promise<boolean | undefined> {
  const { rows } = await db.query<Pick<Row<'application_type'>, 'supports_multicontainer'>>('SELECT supports_multicontainer FROM application_type WHERE id = $1', [
    id,
  ]);
  return rows[0]?.supports_multicontainer;
}

/** Whether any of the given fleets' application types supports multiple containers. */
export async function anyFleetMulticontainer(db: Db, ids: readonly number[]): Promise<boolean | undefined> {
  const { rows } = await db.query<{ any: boolean }>(
    `SELECT coalesce(bool_or(t.supports_multicontainer), false) AS any
         FROM application a JOIN application_type t ON t.id = a.application_type WHERE a.id = ANY($1::int[])`,
    [ids],
  );
  return rows[0]?.any;
}

/** Whether one of the given fleets is of a legacy type (its own or `applicationType`) and would be renamed to `appName`. */
export async function renamesLegacyFleet(db: Db, ids: readonly number[], appName: string, applicationType: number | null): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a JOIN application_type t ON t.id = COALESCE($3::int, a.application_type)
      WHERE a.id = ANY($1::int[]) AND t.is_legacy AND a.app_name <> $2 LIMIT 1`,
    [ids, appName, applicationType],
  );
  return rowCount > 0;
}

/** A write's values for the legacy public check; null where the write does not set them. */
export interface LegacyPublicWrite {
  applicationType: number | null;
  isPublic: boolean | null;
  repoGiven: boolean;
  repositoryUrl: string | null;
}

/** Whether one of the given fleets, as the write leaves it, is a public legacy application without a repository URL. */
export async function leavesPublicLegacyWithoutRepo(db: Db, ids: readonly number[], write: LegacyPublicWrite): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM application a JOIN application_type t ON t.id = COALESCE($2::int, a.application_type)
      WHERE a.id = ANY($1::int[]) AND t.is_legacy
        AND COALESCE($3::boolean, a.is_public)
        AND COALESCE(trim(CASE WHEN $4 THEN $5::text ELSE a.is_stored_at__repository_url END), '') = ''
      LIMIT 1`,
    [ids, write.applicationType, write.isPublic, write.repoGiven, write.repositoryUrl],
  );
  return rowCount > 0;
}

export type TransferredFleetRow = Pick<Row<'application'>, 'id' | 'app_name' | 'organization'> & { devices: boolean };

/** The given fleets, by id, with whether they have devices. */
export async function selectFleetsForTransfer(db: Db, ids: readonly number[]): Promise<TransferredFleetRow[]> {
  const { rows } = await db.query<TransferredFleetRow>(
    `SELECT a.id, a.app_name, a.organization, EXISTS (SELECT 1 FROM device d WHERE d.belongs_to__application = a.id) AS devices
       FROM application a WHERE a.id = ANY($1::int[]) ORDER BY a.id`,
    [ids],
  );
  return rows;
}

/** The applications of an organization named like `appName` (case-insensitive), other than the given ones. */
export async function selectSameNamedApplications(
  db: Db,
  organization: unknown,
  appName: string,
  exceptIds: readonly number[],
): Promise<Pick<Row<'application'>, 'app_name' | 'is_of__class'>[]> {
  const { rows } = await db.query<Pick<Row<'application'>, 'app_name' | 'is_of__class'>>(
    'SELECT app_name, is_of__class FROM application WHERE organization = $1 AND lower(app_name) = lower($2) AND id <> ALL($3::int[])',
    [organization, appName, exceptIds],
  );
  return rows;
}
