import type { Db } from '../../infra/db/db.js';

/** A supervisor block of the platform organization (`<arch>-supervisor`). */
export interface SupervisorBlock {
  id: number;
  slug: string;
  arch: string;
}

/** The platform organization's supervisor blocks, of one architecture or (`arch` null) all. */
export async function selectSupervisorBlocks(db: Db, platformHandle: string, suffix: string, arch: string | null): Promise<SupervisorBlock[]> {
  const { rows } = await db.query<{ id: number; slug: string; app_name: string }>(
    `SELECT a.id, a.slug, a.app_name FROM application a JOIN organization o ON o.id = a.organization
      WHERE o.handle = $1 AND a.is_of__class = 'block' AND a.is_public AND right(a.app_name, $2) = $3
        AND ($4::text IS NULL OR a.app_name = $4 || $3)
      ORDER BY a.app_name`,
    [platformHandle, suffix.length, suffix, arch],
  );
  return rows.map((r) => ({ id: r.id, slug: r.slug, arch: r.app_name.slice(0, -suffix.length) }));
}

/** Whether block `application` has a release of version `version` (raw_version or semver). */
export async function supervisorReleaseExists(db: Db, application: number, version: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM release WHERE belongs_to__application = $1 AND (raw_version = $2 OR semver = $2) LIMIT 1`, [application, version]);
  return rows.length > 0;
}

export interface NewSupervisorRelease {
  application: number;
  commit: string;
  version: string;
  userId: number;
  tagKey: string;
  content: Buffer;
  sha256: string;
}

/** Inserts a successful final supervisor release with the catalogue's fields, its build and the agent-build tag; returns its id. */
export async function insertSupervisorRelease(db: Db, r: NewSupervisorRelease): Promise<number> {
  const [major, minor, patch] = r.version.split('.').map(Number);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO release (belongs_to__application, commit, composition, status, source, is_final, semver, semver_major, semver_minor, semver_patch,
                          revision, raw_version, variant, is_created_by__user, start_timestamp, end_timestamp)
     VALUES ($1, $2, '{}'::jsonb, 'success', 'cloud', true, $3, $4, $5, $6, 0, $3, '', $7, now(), now())
     RETURNING id`,
    [r.application, r.commit, r.version, major, minor, patch, r.userId],
  );
  const id = rows[0]!.id;
  await db.query(`INSERT INTO supervisor_build (release, bundled, content, sha256, size) VALUES ($1, false, $2, $3, $4)`, [id, r.content, r.sha256, r.content.length]);
  await db.query(`INSERT INTO release_tag (release, tag_key, value) VALUES ($1, $2, $3)`, [id, r.tagKey, r.sha256]);
  return id;
}

/** What the database holds of release `releaseId`'s build: null without one. */
export interface StoredBuild {
  version: string;
  bundled: boolean;
  sha256: string | null;
  size: number | null;
}

export async function selectSupervisorBuild(db: Db, releaseId: number): Promise<StoredBuild | null> {
  const { rows } = await db.query<{ version: string; bundled: boolean; sha256: string | null; size: number | null }>(
    `SELECT r.raw_version AS version, b.bundled, b.sha256, b.size FROM supervisor_build b JOIN release r ON r.id = b.release WHERE b.release = $1`,
    [releaseId],
  );
  return rows[0] ?? null;
}

/** The stored content of release `releaseId`'s published build (null for none or the bundled one). */
export async function selectSupervisorBuildContent(db: Db, releaseId: number): Promise<Buffer | null> {
  const { rows } = await db.query<{ content: Buffer | null }>(`SELECT content FROM supervisor_build WHERE release = $1`, [releaseId]);
  return rows[0]?.content ?? null;
}
