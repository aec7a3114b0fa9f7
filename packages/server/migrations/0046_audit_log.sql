-- Issue 21 item 5: the audit log. The staff-read trail of 0041 grows into the organization's
-- audit log: every write through the data API (`write`) and every custom action (`action`)
-- joins the staff reads, with before/after of the changed fields, and every row is chained to
-- the organization's previous one by a SHA-256 hash (tamper evidence; docs/audit-log.md).
ALTER TABLE "audit_event" DROP CONSTRAINT IF EXISTS "audit_event_kind_check";
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_kind_check" CHECK ("kind" IN ('staff_read', 'write', 'action'));
-- The API key a request authenticated with (by id and name: the trail outlives the key) and
-- the device that acted (device credentials).
ALTER TABLE "audit_event" ADD COLUMN "api_key" varchar(255);
ALTER TABLE "audit_event" ADD COLUMN "action" varchar(255);
ALTER TABLE "audit_event" ADD COLUMN "row_ids" text;
ALTER TABLE "audit_event" ADD COLUMN "changes" jsonb;
ALTER TABLE "audit_event" ADD COLUMN "prev_hash" varchar(64);
ALTER TABLE "audit_event" ADD COLUMN "hash" varchar(64);

-- The canonical content a row's hash covers: every column but `hash`, as one jsonb object
-- (its text form is deterministic: keys ordered by length then bytes), the time in UTC with
-- microseconds so the text does not depend on the session's time zone. scripts/verify-audit.mjs
-- rebuilds the same text from an exported line.
CREATE FUNCTION "audit_event_content"(e "audit_event") RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', e."id",
    'created_at', to_char(e."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'organization', e."organization",
    'kind', e."kind",
    'is_performed_as__user', e."is_performed_as__user",
    'performed_as_username', e."performed_as_username",
    'is_performed_by__user', e."is_performed_by__user",
    'performed_by_username', e."performed_by_username",
    'staff_role', e."staff_role",
    'api_key', e."api_key",
    'method', e."method",
    'route', e."route",
    'resource', e."resource",
    'action', e."action",
    'row_ids', e."row_ids",
    'request', e."request",
    'request_id', e."request_id",
    'changes', e."changes",
    'prev_hash', e."prev_hash"
  )
$$;

CREATE FUNCTION "audit_event_hash"(e "audit_event") RETURNS varchar LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to("audit_event_content"(e)::text, 'UTF8')), 'hex')
$$;

-- Backfill: chain the existing rows (staff reads), per organization in id order.
DO $$
DECLARE
  r "audit_event";
  last_org integer := NULL;
  last_hash varchar := NULL;
BEGIN
  FOR r IN SELECT * FROM "audit_event" ORDER BY "organization", "id" LOOP
    IF last_org IS DISTINCT FROM r."organization" THEN
      last_hash := NULL;
      last_org := r."organization";
    END IF;
    r."prev_hash" := last_hash;
    r."hash" := "audit_event_hash"(r);
    UPDATE "audit_event" SET "prev_hash" = r."prev_hash", "hash" = r."hash" WHERE "id" = r."id";
    last_hash := r."hash";
  END LOOP;
END $$;
ALTER TABLE "audit_event" ALTER COLUMN "hash" SET NOT NULL;

-- Every insert, whoever makes it, is appended to its organization's chain: the organization's
-- transaction-scoped advisory lock serialises appends (two writers cannot both link to the same
-- predecessor), the id is drawn under the lock so id order is chain order, and prev_hash/hash
-- are computed here, in the inserting transaction. The lock is held until commit: appends to
-- one organization's log are serialised, other organizations are not affected.
CREATE FUNCTION "audit_event_chain"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('audit_event'), NEW."organization");
  NEW."id" := nextval(pg_get_serial_sequence('"audit_event"', 'id'));
  SELECT "hash" INTO NEW."prev_hash" FROM "audit_event" WHERE "organization" = NEW."organization" ORDER BY "id" DESC LIMIT 1;
  NEW."hash" := "audit_event_hash"(NEW);
  RETURN NEW;
END $$;
CREATE TRIGGER "audit_event_chain" BEFORE INSERT ON "audit_event" FOR EACH ROW EXECUTE FUNCTION "audit_event_chain"();
CREATE INDEX "audit_event_organization_id_idx" ON "audit_event" ("organization", "id");
