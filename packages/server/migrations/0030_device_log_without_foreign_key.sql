-- Issue 15, log throughput: device_log loses its foreign key to device. The key's check ran per
-- inserted line and took FOR KEY SHARE on the device's row until the INSERT committed: one
-- multi-row INSERT of thousands of lines locked hundreds of device rows, in line order, for
-- seconds. State reports lock their devices FOR UPDATE (in id order), so the log INSERT waited
-- behind them, they waited behind it, and the two deadlocked (PostgreSQL then rolled the whole
-- INSERT back). The INSERT already keeps only lines of devices that exist (EXISTS); a device
-- deleted while an INSERT of its lines commits leaves lines no reader can reach (ids are never
-- reused), which the day cap removes. Deleting a device still deletes its lines, by trigger.
ALTER TABLE "device_log" DROP CONSTRAINT "device_log_device_fkey";

CREATE FUNCTION "device_log_delete_of_device"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "device_log" WHERE "device" = OLD."id";
  RETURN OLD;
END
$$;

CREATE TRIGGER "device_log_delete_of_device" AFTER DELETE ON "device"
  FOR EACH ROW EXECUTE FUNCTION "device_log_delete_of_device"();
