-- Issue 15: the actions service's runs (features/device-diagnostics): the last run of each
-- long device action (health checks, diagnose) per device, so a refresh, another browser or
-- another server process sees the same run. Not a resource of the data API: only the
-- actions service reads and writes it. One row per (device, action); a new run replaces the
-- finished one. `run_id` ties the device's answer to the run it answers (a late answer to an
-- older run changes nothing); `deadline` lets any process tell a run whose server stopped
-- waiting (crashed, restarted) from one still under way.
CREATE TABLE "device_action_run" (
  "device" integer NOT NULL REFERENCES "device" ("id") ON DELETE CASCADE,
  "action" text NOT NULL CHECK ("action" IN ('checks', 'diagnose')),
  "run_id" uuid NOT NULL UNIQUE,
  "status" text NOT NULL CHECK ("status" IN ('configuring', 'in_progress', 'done', 'error')),
  "params" jsonb NOT NULL DEFAULT '{}',
  "stdout" jsonb,
  "error" text,
  "started_at" timestamp with time zone NOT NULL DEFAULT now(),
  "deadline" timestamp with time zone NOT NULL,
  "finished_at" timestamp with time zone,
  PRIMARY KEY ("device", "action")
);
