-- Issue 15: device logs (features/device-logs). Each device keeps its last N lines and D days
-- (FLOTILLA_LOG_RETAIN_LINES / FLOTILLA_LOG_RETAIN_DAYS); lines are written in multi-row
-- batches and read newest-first by (device, id). Not a resource of the data API: only the
-- device-logs feature reads and writes it. Deleting a device deletes its lines.
CREATE TABLE "device_log" (
  "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "device" integer NOT NULL REFERENCES "device" ("id") ON DELETE CASCADE,
  -- When the server stored the line (ms since the epoch; `createdAt` of the dialect).
  "created_at" bigint NOT NULL,
  -- When the device says the line was written (ms since the epoch).
  "timestamp" bigint NOT NULL,
  "message" text NOT NULL,
  "is_system" boolean NOT NULL DEFAULT false,
  "is_stderr" boolean NOT NULL DEFAULT false,
  "service_id" integer
);
-- Reading the newest lines of a device, and pruning to the last N.
CREATE INDEX "device_log_device_id_idx" ON "device_log" ("device", "id");
-- The day cap's sweep (created_at grows with id, so this index is appended to at its end).
CREATE INDEX "device_log_created_at_idx" ON "device_log" ("created_at");
