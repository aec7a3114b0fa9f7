-- Issue 16: the history of variables (variable_change), written by the server in each variable
-- write's transaction (features/variables/variable-history.hooks.ts); read-only through /v7.
CREATE TABLE "variable_change" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "application" integer NOT NULL,
  "device" integer,
  "service" integer,
  "variable_kind" varchar(255) NOT NULL CHECK ("variable_kind" IN ('application_config_variable', 'application_environment_variable', 'service_environment_variable', 'device_config_variable', 'device_environment_variable', 'device_service_environment_variable')),
  "name" varchar(255) NOT NULL,
  "action" varchar(255) NOT NULL CHECK ("action" IN ('create', 'update', 'delete')),
  "old_value" text,
  "new_value" text,
  "actor" integer,
  "actor_name" varchar(255) NOT NULL
);
CREATE INDEX "variable_change_application_created_at_idx" ON "variable_change" ("application", "created_at");
CREATE INDEX "variable_change_device_idx" ON "variable_change" ("device");
CREATE INDEX "variable_change_service_idx" ON "variable_change" ("service");
CREATE INDEX "variable_change_actor_idx" ON "variable_change" ("actor");
ALTER TABLE "variable_change" ADD CONSTRAINT "variable_change_application_fkey" FOREIGN KEY ("application") REFERENCES "application" ("id") ON DELETE CASCADE;
ALTER TABLE "variable_change" ADD CONSTRAINT "variable_change_device_fkey" FOREIGN KEY ("device") REFERENCES "device" ("id") ON DELETE CASCADE;
ALTER TABLE "variable_change" ADD CONSTRAINT "variable_change_service_fkey" FOREIGN KEY ("service") REFERENCES "service" ("id") ON DELETE CASCADE;
ALTER TABLE "variable_change" ADD CONSTRAINT "variable_change_actor_fkey" FOREIGN KEY ("actor") REFERENCES "user" ("id") ON DELETE SET NULL;
