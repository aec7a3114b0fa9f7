-- Issue 14: the embedded container registry (features/registry). Blobs live in the blob
-- store (<data>/registry/blobs); these tables hold what each repository links, its
-- manifests (the bytes themselves, at most 4 MB each), tags and uploads in progress.
-- Not resources of the data API: only the registry reads and writes them.
CREATE TABLE "registry_repository" (
  "id" serial PRIMARY KEY,
  "name" text NOT NULL UNIQUE,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);

-- A blob in the store. `touched_at` moves on every upload or mount of it, so the garbage
-- sweep (which only takes blobs no repository links and untouched for a grace period)
-- never races a push that is linking it.
CREATE TABLE "registry_blob" (
  "digest" text PRIMARY KEY,
  "size" bigint NOT NULL,
  "touched_at" timestamp with time zone NOT NULL DEFAULT now()
);

CREATE TABLE "registry_repository_blob" (
  "repository" integer NOT NULL REFERENCES "registry_repository" ("id") ON DELETE CASCADE,
  "digest" text NOT NULL REFERENCES "registry_blob" ("digest") ON DELETE CASCADE,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("repository", "digest")
);
CREATE INDEX "registry_repository_blob_digest_idx" ON "registry_repository_blob" ("digest");

CREATE TABLE "registry_manifest" (
  "repository" integer NOT NULL REFERENCES "registry_repository" ("id") ON DELETE CASCADE,
  "digest" text NOT NULL,
  "media_type" text NOT NULL,
  "content" bytea NOT NULL,
  -- Blobs (config, layers) and manifests (an index's entries) it refers to.
  "blobs" text[] NOT NULL DEFAULT '{}',
  "manifests" text[] NOT NULL DEFAULT '{}',
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("repository", "digest")
);

CREATE TABLE "registry_tag" (
  "repository" integer NOT NULL,
  "name" text NOT NULL,
  "digest" text NOT NULL,
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("repository", "name"),
  FOREIGN KEY ("repository", "digest") REFERENCES "registry_manifest" ("repository", "digest") ON DELETE CASCADE
);

CREATE TABLE "registry_upload" (
  "uuid" uuid PRIMARY KEY,
  "repository" integer NOT NULL REFERENCES "registry_repository" ("id") ON DELETE CASCADE,
  "started_at" timestamp with time zone NOT NULL DEFAULT now()
);
CREATE INDEX "registry_upload_started_at_idx" ON "registry_upload" ("started_at");

-- The garbage sweep: blobs a manifest still names, and the image of a repository name
-- (its location without the host: `v2/<hex>`).
CREATE INDEX "registry_manifest_blobs_idx" ON "registry_manifest" USING gin ("blobs");
CREATE INDEX "image_registry_repository_idx" ON "image" ((regexp_replace("is_stored_at__image_location", '^[^/]*/', '')));
