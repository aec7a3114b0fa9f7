-- Issue 12: release assets (balena's release_asset). The file itself lives in the file store
-- (infra/files); the `asset` column holds its metadata and store key.
CREATE TABLE "release_asset" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "release" integer NOT NULL,
  "asset_key" varchar(255) NOT NULL,
  "asset" jsonb
);
ALTER TABLE "release_asset" ADD CONSTRAINT "release_asset_release_asset_key_key" UNIQUE ("release", "asset_key");
ALTER TABLE "release_asset" ADD CONSTRAINT "release_asset_release_fkey" FOREIGN KEY ("release") REFERENCES "release" ("id") ON DELETE CASCADE;

-- Stored files no row refers to any more, waiting to be removed from the file store. A
-- trigger fills it, so every way a file is dropped (the asset deleted or overwritten, its
-- release, fleet or organization deleted by cascade) is covered, and only once the change
-- commits; the server empties it after such writes and in a periodic job.
CREATE TABLE "stored_file_garbage" (
  "key" text PRIMARY KEY,
  "queued_at" timestamp with time zone NOT NULL DEFAULT now()
);

-- TG_ARGV[0]: the WebResource column whose file goes when the row is deleted or the value replaced.
CREATE FUNCTION "web_resource_garbage"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_key text := to_jsonb(OLD) -> TG_ARGV[0] ->> 'key';
BEGIN
  IF old_key IS NOT NULL AND (TG_OP = 'DELETE' OR old_key IS DISTINCT FROM (to_jsonb(NEW) -> TG_ARGV[0] ->> 'key')) THEN
    INSERT INTO "stored_file_garbage" ("key") VALUES (old_key) ON CONFLICT ("key") DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "release_asset_asset_garbage" AFTER UPDATE OR DELETE ON "release_asset"
  FOR EACH ROW EXECUTE FUNCTION "web_resource_garbage"('asset');
