-- Dialect §4.2: a deleted device that still polls its target state gets 304 (keep running
-- what you have), not 401. Its API keys go with it, so the poll can no longer authenticate;
-- this table remembers which uuids belonged to deleted devices. A trigger keeps it, so every
-- way a device is deleted (data API, fleet deletion cascade, account deletion) is covered.
CREATE TABLE "deleted_device" (
  "uuid" text PRIMARY KEY,
  "deleted_at" timestamp with time zone NOT NULL DEFAULT now()
);

CREATE FUNCTION "device_tombstone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO "deleted_device" ("uuid") VALUES (OLD."uuid")
      ON CONFLICT ("uuid") DO UPDATE SET "deleted_at" = now();
    RETURN OLD;
  END IF;
  -- A uuid registered again is a live device once more.
  DELETE FROM "deleted_device" WHERE "uuid" = NEW."uuid";
  RETURN NEW;
END $$;

CREATE TRIGGER "device_tombstone" AFTER INSERT OR DELETE ON "device"
  FOR EACH ROW EXECUTE FUNCTION "device_tombstone"();
