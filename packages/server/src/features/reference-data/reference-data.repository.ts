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

/** Inserts the platform organization (owner of the public OS catalogue) if missing; returns its id. */
export async function upsertPlatformOrganization(db: Db, handle: string, name: string): Promise<number> {
  await db.query('INSERT INTO organization (handle, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [handle, name]);
  const { rows } = await db.query<{ id: number; members: boolean }>(
    `SELECT id, EXISTS (SELECT 1 FROM organization_membership m WHERE m.is_member_of__organization = o.id) AS members
       FROM organization o WHERE handle = $1`,
    [handle],
  );
  if (!rows[0]) throw new Error(`The platform organization '${handle}' cannot be created: its name '${name}' is taken`);
  // A users' organization of that handle (a user named so) must not receive the catalogue.
  if (rows[0].members) throw new Error(`The platform organization handle '${handle}' belongs to an organization with members; rename it to start`);
  return rows[0].id;
}

export interface CatalogueFleetValues {
  organization: number;
  appName: string;
  slug: string;
  deviceType: string;
  isHost: boolean;
  klass: 'app' | 'block';
  archived: boolean;
}

/** Inserts a public catalogue fleet (with its actor) or brings its flags in line; returns its id. */
export async function upsertCatalogueFleet(db: Db, f: CatalogueFleetValues): Promise<number> {
  const existing = await db.query<{ id: number }>(
    `UPDATE application SET is_public = true, is_host = $2, is_of__class = $3, is_archived = $4,
            is_for__device_type = (SELECT id FROM device_type WHERE slug = $5)
      WHERE slug = $1 AND organization = $6 RETURNING id`,
    [f.slug, f.isHost, f.klass, f.archived, f.deviceType, f.organization],
  );
  if (existing.rows[0]) return existing.rows[0].id;
  const { rows } = await db.query<{ id: number }>(
    `WITH a AS (INSERT INTO actor DEFAULT VALUES RETURNING id)
     INSERT INTO application (actor, app_name, slug, uuid, organization, is_for__device_type, is_host, is_public, is_of__class, is_archived)
     SELECT a.id, $1, $2::text, md5($2::text), $3, dt.id, $4, true, $5, $6 FROM a, device_type dt WHERE dt.slug = $7
     RETURNING id`,
    [f.appName, f.slug, f.organization, f.isHost, f.klass, f.archived, f.deviceType],
  );
  return rows[0]!.id;
}

/** Sets fleet tags (key → value) of a catalogue fleet. */
export async function upsertApplicationTags(db: Db, application: number, tags: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(tags)) {
    await db.query(
      `INSERT INTO application_tag (application, tag_key, value) VALUES ($1, $2, $3)
       ON CONFLICT (application, tag_key) DO UPDATE SET value = excluded.value`,
      [application, key, value],
    );
  }
}

export interface CatalogueReleaseValues {
  commit: string;
  semver: string;
  revision: number;
  raw_version: string;
  variant: string;
  phase: string | null;
  known_issue_list: string | null;
  note: string | null;
  created_at: string;
  tags: Record<string, string>;
}

/**
 * Inserts the catalogue releases a fleet lacks (by commit, or by raw_version: a version an
 * administrator published keeps its own row), successful and final, and sets their phase,
 * known issues, notes and release tags (of the rows with these commits only: a published
 * release has a commit of its own, so the seed never changes it; nor does it touch
 * `is_invalidated`, so a withdrawn release stays withdrawn). One statement each for all releases.
 */
export async function upsertCatalogueReleases(db: Db, application: number, releases: readonly CatalogueReleaseValues[]): Promise<void> {
  const json = JSON.stringify(releases.map(({ tags: _tags, ...r }) => r));
  await db.query(
    `INSERT INTO release (belongs_to__application, commit, composition, status, source, is_final, semver, semver_major, semver_minor, semver_patch,
                          revision, raw_version, variant, phase, known_issue_list, note, created_at, start_timestamp, end_timestamp)
     SELECT $1, r.commit, '{}'::jsonb, 'success', 'cloud', true, r.semver, split_part(r.semver, '.', 1)::int, split_part(r.semver, '.', 2)::int,
            split_part(r.semver, '.', 3)::int, r.revision, r.raw_version, r.variant, r.phase, r.known_issue_list, r.note,
            r.created_at::timestamptz, r.created_at::timestamptz, r.created_at::timestamptz
       FROM jsonb_to_recordset($2::jsonb) AS r(commit text, semver text, revision int, raw_version text, variant text, phase text,
                                               known_issue_list text, note text, created_at text)
      WHERE NOT EXISTS (SELECT 1 FROM release x WHERE x.belongs_to__application = $1 AND (x.commit = r.commit OR x.raw_version = r.raw_version))`,
    [application, json],
  );
  await db.query(
    `UPDATE release x SET phase = r.phase, known_issue_list = r.known_issue_list, note = r.note
       FROM jsonb_to_recordset($2::jsonb) AS r(commit text, phase text, known_issue_list text, note text)
      WHERE x.belongs_to__application = $1 AND x.commit = r.commit`,
    [application, json],
  );
  const tags = releases.flatMap((r) => Object.entries(r.tags).map(([tag_key, value]) => ({ commit: r.commit, tag_key, value })));
  await db.query(
    `INSERT INTO release_tag (release, tag_key, value)
     SELECT x.id, t.tag_key, t.value
       FROM jsonb_to_recordset($2::jsonb) AS t(commit text, tag_key text, value text)
       JOIN release x ON x.belongs_to__application = $1 AND x.commit = t.commit
     ON CONFLICT (release, tag_key) DO UPDATE SET value = excluded.value`,
    [application, JSON.stringify(tags)],
  );
}

// ---- Published OS releases (issue 17: /admin publishes and withdraws host OS releases) ----

export interface HostFleetRow {
  id: number;
  slug: string;
}

/** The platform organization's host fleet `appName`, locked for the publish transaction (one publish of a version at a time). */
export async function lockHostFleet(db: Db, organizationHandle: string, appName: string): Promise<HostFleetRow | undefined> {
  const { rows } = await db.query<HostFleetRow>(
    `SELECT a.id, a.slug FROM application a JOIN organization o ON o.id = a.organization
      WHERE o.handle = $1 AND a.app_name = $2 AND a.is_host AND a.is_public AND NOT a.is_archived
      FOR UPDATE OF a`,
    [organizationHandle, appName],
  );
  return rows[0];
}

/** Every raw_version of a fleet's releases, withdrawn ones included. */
export async function selectRawVersions(db: Db, application: number): Promise<string[]> {
  const { rows } = await db.query<{ raw_version: string }>('SELECT raw_version FROM release WHERE belongs_to__application = $1 AND raw_version IS NOT NULL', [application]);
  return rows.map((r) => r.raw_version);
}

/** The release of `application` with this commit. */
export async function releaseIdByCommit(db: Db, application: number, commit: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM release WHERE belongs_to__application = $1 AND commit = $2', [application, commit]);
  return rows[0]!.id;
}

export interface CatalogueOsReleaseRow {
  id: number;
  raw_version: string;
  is_invalidated: boolean;
}

/** A release of one of the platform organization's host OS fleets, locked; undefined for any other release. */
export async function lockCatalogueOsRelease(db: Db, organizationHandle: string, release: number): Promise<CatalogueOsReleaseRow | undefined> {
  const { rows } = await db.query<CatalogueOsReleaseRow>(
    `SELECT r.id, r.raw_version, r.is_invalidated FROM release r
       JOIN application a ON a.id = r.belongs_to__application JOIN organization o ON o.id = a.organization
      WHERE r.id = $2 AND o.handle = $1 AND a.is_host AND a.is_public
      FOR UPDATE OF r`,
    [organizationHandle, release],
  );
  return rows[0];
}

export async function invalidateRelease(db: Db, release: number): Promise<void> {
  await db.query('UPDATE release SET is_invalidated = true WHERE id = $1', [release]);
}

/**
 * Makes release `commit` of supervisor block `application` the one whose build is the
 * server's own agent bundle (features/agent-releases): a `bundled` supervisor_build row and the
 * agent-build release tag `bundled`. The block's other bundled rows (a previous server version's
 * agent) are dropped with their tag: the server only has its current bundle. A release that
 * already has a published build keeps it.
 */
export async function markBundledSupervisorBuild(db: Db, application: number, commit: string, tagKey: string): Promise<void> {
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM release WHERE belongs_to__application = $1 AND commit = $2`, [application, commit]);
  const id = rows[0]?.id;
  if (id === undefined) return;
  await db.query(
    `DELETE FROM release_tag t USING supervisor_build b, release r
      WHERE b.bundled AND b.release = r.id AND r.belongs_to__application = $1 AND r.id <> $2 AND t.release = r.id AND t.tag_key = $3`,
    [application, id, tagKey],
  );
  await db.query(
    `DELETE FROM supervisor_build b USING release r WHERE b.bundled AND b.release = r.id AND r.belongs_to__application = $1 AND r.id <> $2`,
    [application, id],
  );
  const inserted = await db.query(`INSERT INTO supervisor_build (release, bundled) VALUES ($1, true) ON CONFLICT (release) DO NOTHING`, [id]);
  if ((inserted.rowCount ?? 0) > 0) {
    await db.query(
      `INSERT INTO release_tag (release, tag_key, value) VALUES ($1, $2, 'bundled') ON CONFLICT (release, tag_key) DO UPDATE SET value = excluded.value`,
      [id, tagKey],
    );
  }
}
