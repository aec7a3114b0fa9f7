import type { Db } from '../../infra/db/db.js';

/** The registry's metadata (migration 0026): repositories, their blob links, manifests, tags, uploads. */

export async function ensureRepository(db: Db, name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO registry_repository (name) VALUES ($1)
     ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [name],
  );
  return rows[0]!.id;
}

export async function findRepository(db: Db, name: string): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM registry_repository WHERE name = $1', [name]);
  return rows[0]?.id ?? null;
}

/** The images (data-API rows) stored in repository `name`: what the audit log names for a manifest push or delete. */
export async function imagesStoredIn(db: Db, name: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM image WHERE is_stored_at__image_location LIKE '%/' || $1`, [name]);
  return rows.map((r) => r.id);
}

export async function createUpload(db: Db, repository: number, uuid: string): Promise<void> {
  await db.query('INSERT INTO registry_upload (uuid, repository) VALUES ($1, $2)', [uuid, repository]);
}

export async function uploadExists(db: Db, repository: number, uuid: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM registry_upload WHERE uuid = $1 AND repository = $2', [uuid, repository]);
  return rows.length > 0;
}

export async function deleteUpload(db: Db, uuid: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM registry_upload WHERE uuid = $1', [uuid]);
  return rowCount > 0;
}

/**
 * Records blob `digest` and links it to `repository`, ending upload `uuid`. The blob row is
 * written (and locked) before `place` moves the bytes into the store, so a garbage sweep
 * either finished with that blob before (its row and file gone; this writes both anew) or
 * skips it (locked, then touched).
 */
export async function commitBlob(db: Db, repository: number, uuid: string, digest: string, size: number, place: () => Promise<void>): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO registry_blob (digest, size) VALUES ($1, $2)
       ON CONFLICT (digest) DO UPDATE SET touched_at = now()`,
      [digest, size],
    );
    await place();
    await tx.query('INSERT INTO registry_repository_blob (repository, digest) VALUES ($1, $2) ON CONFLICT DO NOTHING', [repository, digest]);
    await tx.query('DELETE FROM registry_upload WHERE uuid = $1', [uuid]);
  });
}

/** Links a blob that repository `from` links into `repository` (cross-repository mount); its size, or null. */
export async function mountBlob(db: Db, from: string, repository: number, digest: string): Promise<number | null> {
  return db.tx(async (tx) => {
    const { rows } = await tx.query<{ size: string }>(
      `UPDATE registry_blob b SET touched_at = now()
        WHERE b.digest = $1 AND EXISTS (
          SELECT 1 FROM registry_repository_blob l JOIN registry_repository r ON r.id = l.repository
           WHERE l.digest = b.digest AND r.name = $2)
       RETURNING b.size`,
      [digest, from],
    );
    if (rows.length === 0) return null;
    await tx.query('INSERT INTO registry_repository_blob (repository, digest) VALUES ($1, $2) ON CONFLICT DO NOTHING', [repository, digest]);
    return Number(rows[0]!.size);
  });
}

/** The size of a blob `repository` links, or null. */
export async function linkedBlob(db: Db, repository: number, digest: string): Promise<number | null> {
  const { rows } = await db.query<{ size: string }>(
    `SELECT b.size FROM registry_repository_blob l JOIN registry_blob b ON b.digest = l.digest
      WHERE l.repository = $1 AND l.digest = $2`,
    [repository, digest],
  );
  return rows[0] ? Number(rows[0].size) : null;
}

export async function unlinkBlob(db: Db, repository: number, digest: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM registry_repository_blob WHERE repository = $1 AND digest = $2', [repository, digest]);
  return rowCount > 0;
}

/** Which of `digests` the repository links as blobs. */
export async function linkedBlobs(db: Db, repository: number, digests: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ digest: string }>(
    'SELECT digest FROM registry_repository_blob WHERE repository = $1 AND digest = ANY($2::text[])',
    [repository, digests],
  );
  return new Set(rows.map((r) => r.digest));
}

/** Which of `digests` the repository holds as manifests. */
export async function storedManifests(db: Db, repository: number, digests: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ digest: string }>(
    'SELECT digest FROM registry_manifest WHERE repository = $1 AND digest = ANY($2::text[])',
    [repository, digests],
  );
  return new Set(rows.map((r) => r.digest));
}

export interface ManifestInput {
  digest: string;
  mediaType: string;
  content: Buffer;
  blobs: string[];
  manifests: string[];
}

/** Stores a manifest (identical bytes: kept) and points `tag` at it. */
export async function putManifest(db: Db, repository: number, m: ManifestInput, tag: string | null): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO registry_manifest (repository, digest, media_type, content, blobs, manifests)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (repository, digest) DO NOTHING`,
      [repository, m.digest, m.mediaType, m.content, m.blobs, m.manifests],
    );
    if (tag !== null) {
      await tx.query(
        `INSERT INTO registry_tag (repository, name, digest) VALUES ($1, $2, $3)
         ON CONFLICT (repository, name) DO UPDATE SET digest = EXCLUDED.digest, updated_at = now()`,
        [repository, tag, m.digest],
      );
    }
  });
}

export interface StoredManifest {
  digest: string;
  media_type: string;
  content: Buffer;
}

/** A manifest by digest (`sha256:…`) or by tag. */
export async function findManifest(db: Db, repository: number, reference: string): Promise<StoredManifest | null> {
  const byDigest = reference.includes(':');
  const { rows } = await db.query<StoredManifest>(
    byDigest
      ? 'SELECT digest, media_type, content FROM registry_manifest WHERE repository = $1 AND digest = $2'
      : `SELECT m.digest, m.media_type, m.content FROM registry_tag t
           JOIN registry_manifest m ON m.repository = t.repository AND m.digest = t.digest
          WHERE t.repository = $1 AND t.name = $2`,
    [repository, reference],
  );
  return rows[0] ?? null;
}

/** Deletes a manifest (and the tags on it), or only a tag. */
export async function deleteManifest(db: Db, repository: number, reference: string): Promise<boolean> {
  const { rowCount } = reference.includes(':')
    ? await db.query('DELETE FROM registry_manifest WHERE repository = $1 AND digest = $2', [repository, reference])
    : await db.query('DELETE FROM registry_tag WHERE repository = $1 AND name = $2', [repository, reference]);
  return rowCount > 0;
}

/** Tags in lexical order after `last`, at most `limit`. */
export async function listTags(db: Db, repository: number, last: string, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM registry_tag WHERE repository = $1 AND name > $2 ORDER BY name COLLATE "C" LIMIT $3',
    [repository, last, limit],
  );
  return rows.map((r) => r.name);
}

/** Repository names in lexical order after `last`, at most `limit`. */
export async function listRepositories(db: Db, last: string, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM registry_repository WHERE name COLLATE "C" > $1 ORDER BY name COLLATE "C" LIMIT $2',
    [last, limit],
  );
  return rows.map((r) => r.name);
}

// ── Garbage (registry-garbage job) ───────────────────────────────────────────────────────

/** Drops uploads begun before `before`; their uuids (the caller removes their files). */
export async function dropStaleUploads(db: Db, before: Date): Promise<string[]> {
  const { rows } = await db.query<{ uuid: string }>('DELETE FROM registry_upload WHERE started_at < $1 RETURNING uuid', [before]);
  return rows.map((r) => r.uuid);
}

/**
 * Drops repositories no image needs any more (their links, manifests, tags and uploads go by
 * cascade): no image is stored at `<host>/<name>`, or its image is part of no release and
 * older than `before` (a deploy creates the image, links it to its release, then pushes).
 * Repositories made after `before` are left alone. Returns the names dropped.
 */
export async function dropDeadRepositories(db: Db, before: Date): Promise<{ names: string[]; uploads: string[] }> {
  // Every part of the statement sees the rows as they were: `gone` lists the uploads the
  // cascade removes, whose files the caller then deletes.
  const { rows } = await db.query<{ name: string | null; upload: string | null }>(
    `WITH dead AS (
     DELETE FROM registry_repository r
      WHERE r.created_at < $1
        AND NOT EXISTS (
          SELECT 1 FROM image i
           WHERE regexp_replace(i.is_stored_at__image_location, '^[^/]*/', '') = r.name
             AND (i.created_at >= $1 OR EXISTS (SELECT 1 FROM image__is_part_of__release ir WHERE ir.image = i.id)))
     RETURNING r.id, r.name)
     SELECT d.name, NULL::text AS upload FROM dead d
     UNION ALL
     SELECT NULL, u.uuid::text FROM registry_upload u WHERE u.repository IN (SELECT id FROM dead)`,
    [before],
  );
  return { names: rows.flatMap((r) => (r.name === null ? [] : [r.name])), uploads: rows.flatMap((r) => (r.upload === null ? [] : [r.upload])) };
}

/** Which of `uuids` are uploads in progress. */
export async function knownUploads(db: Db, uuids: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ uuid: string }>('SELECT uuid::text AS uuid FROM registry_upload WHERE uuid = ANY($1::uuid[])', [uuids]);
  return new Set(rows.map((r) => r.uuid));
}

/**
 * Removes blobs no repository links and no manifest names, untouched since `before`, in
 * batches: `remove` deletes each one's bytes while its row is locked (a push of the same
 * blob waits, then writes row and bytes anew). Returns how many went.
 */
export async function sweepBlobs(db: Db, before: Date, remove: (digest: string) => Promise<void>, batch = 500): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await db.tx(async (tx) => {
      const { rows } = await tx.query<{ digest: string }>(
        `SELECT b.digest FROM registry_blob b
          WHERE b.touched_at < $1
            AND NOT EXISTS (SELECT 1 FROM registry_repository_blob l WHERE l.digest = b.digest)
            AND NOT EXISTS (SELECT 1 FROM registry_manifest m WHERE m.blobs @> ARRAY[b.digest])
          ORDER BY b.digest LIMIT ${batch} FOR UPDATE SKIP LOCKED`,
        [before],
      );
      for (const r of rows) await remove(r.digest);
      if (rows.length > 0) await tx.query('DELETE FROM registry_blob WHERE digest = ANY($1::text[])', [rows.map((r) => r.digest)]);
      return rows.length;
    });
    removed += n;
    if (n < batch) return removed;
  }
}

/** Whether an image is part of a release that finished successfully (its bytes are then fixed). */
export async function imageIsReleased(db: Db, imageId: number): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM image__is_part_of__release ir JOIN release r ON r.id = ir.is_part_of__release
      WHERE ir.image = $1 AND r.status = 'success' LIMIT 1`,
    [imageId],
  );
  return rows.length > 0;
}
