-- Issue 15 item 2: the web terminal's audit trail (features/terminal). One row per session the
-- server opened towards a device: who (the user, and the API key when the token was one),
-- which device and target ('host' or 'service:<name>'), when it started and ended, and why it
-- ended. Written by the server only; read through the data API as `terminal_session` by the
-- administrators of the device's fleet and organization. The process relaying a session
-- (server_instance) moves seen_at every minute while it is open; a row whose process died
-- stops moving and the sweep (every process, at start and each minute) closes it.
CREATE TABLE "terminal_session" (
  "id" serial PRIMARY KEY,
  "session" varchar(255) NOT NULL UNIQUE,
  "device" integer NOT NULL REFERENCES "device" ("id") ON DELETE CASCADE,
  "user" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  "username" varchar(255) NOT NULL,
  "api_key" integer REFERENCES "api_key" ("id") ON DELETE SET NULL,
  "target" varchar(255) NOT NULL,
  "started_at" timestamp with time zone NOT NULL DEFAULT now(),
  "ended_at" timestamp with time zone,
  "end_reason" text,
  "server_instance" varchar(255) NOT NULL,
  "seen_at" timestamp with time zone NOT NULL DEFAULT now(),
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
CREATE INDEX "terminal_session_device_idx" ON "terminal_session" ("device");
CREATE INDEX "terminal_session_open_idx" ON "terminal_session" ("seen_at") WHERE "ended_at" IS NULL;
