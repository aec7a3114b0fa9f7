import type { Db } from '../../infra/db/db.js';

/** The reference data's hand-written SQL: the idempotent seed and the legacy device-type manifests. */

export async function upsertCpuArchitecture(db: Db, slug: string): Promise<void> {
  await db.query('INSERT INTO cpu_architecture (slug) VALUES ($1) ON CONFLICT (slug) DO NOTHING', [slug]);
}

export async function upsertOrganizationRole(db: Db, name: string): Promise<void> {
  await db.query('INSERT INTO organization_membership_role (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
}

export async function upsertApplicationMembershipRole(db: Db, name: string): Promise<void> {
  await db.query('INSERT INTO application_membership_role (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
}

export interface ApplicationTypeValues {
  slug: string;
  name: string;
  description: string;
  is_legacy: boolean;
  supports_multicontainer: boolean;
  requires_payment: boolean;
}

/** Inserts an application type, or updates its name and description. */
export async function upsertApplicationType(db: Db, t: ApplicationTypeValues): Promise<void> {
  await db.query(
    `INSERT INTO application_type (slug, name, description, is_legacy, supports_multicontainer, requires_payment)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (slug) DO UPDATE SET name = excluded.name, description = excluded.description`,
    [t.slug, t.name, t.description, t.is_legacy, t.supports_multicontainer, t.requires_payment],
  );
}

/** Inserts a device type of CPU architecture `arch`, or updates it; returns its id. */
export async function upsertDeviceType(db: Db, slug: string, name: string, arch: string, contract: unknown): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO device_type (slug, name, is_of__cpu_architecture, contract)
         SELECT $1, $2, id, $4::jsonb FROM cpu_architecture WHERE slug = $3
         ON CONFLICT (slug) DO UPDATE SET name = excluded.name, contract = excluded.contract,
           is_of__cpu_architecture = excluded.is_of__cpu_architecture
         RETURNING id`,
    [slug, name, arch, JSON.stringify(contract)],
  );
  return rows[0]!.id;
}

/** Makes `alias` name the device type `deviceType` (moving it from another type if it named one). */
export async function upsertDeviceTypeAlias(db: Db, deviceType: number, alias: string): Promise<void> {
  await db.query(
    `INSERT INTO device_type_alias (device_type, is_referenced_by__alias) VALUES ($1, $2)
           ON CONFLICT (is_referenced_by__alias) DO UPDATE SET device_type = excluded.device_type`,
    [deviceType, alias],
  );
}

export interface ManifestRow {
  slug: string;
  name: string;
  arch: string;
  aliases: string[];
  contract: unknown;
}

/** Every device type (or the one known by `alias`) with its architecture and its other aliases, by slug. */
export async function selectManifestRows(db: Db, alias?: string): Promise<ManifestRow[]> {
  return (
    await db.query<ManifestRow>(
      `SELECT dt.slug, dt.name, ca.slug AS arch, dt.contract,
                COALESCE((SELECT array_agg(a.is_referenced_by__alias ORDER BY a.is_referenced_by__alias)
                            FROM device_type_alias a WHERE a.device_type = dt.id AND a.is_referenced_by__alias <> dt.slug), '{}') AS aliases
           FROM device_type dt JOIN cpu_architecture ca ON ca.id = dt.is_of__cpu_architecture
          WHERE $1::text IS NULL OR dt.id = (SELECT device_type FROM device_type_alias WHERE is_referenced_by__alias = $1)
          ORDER BY dt.slug`,
      [alias ?? null],
    )
  ).rows;
}
