-- Spec 2 §3 device field last_update_status_event: when update_status last changed. Kept by a
-- trigger, so every writer (state reports, the data API) keeps it right without knowing of it.
ALTER TABLE "device" ADD COLUMN "last_update_status_event" timestamp with time zone;

CREATE FUNCTION "device_update_status_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."update_status" IS NOT NULL THEN NEW."last_update_status_event" := now(); END IF;
  ELSIF NEW."update_status" IS DISTINCT FROM OLD."update_status" THEN
    NEW."last_update_status_event" := now();
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "device_update_status_event" BEFORE INSERT OR UPDATE OF "update_status" ON "device"
  FOR EACH ROW EXECUTE FUNCTION "device_update_status_event"();
