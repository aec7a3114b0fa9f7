-- Issue 5: the device protocol (dialect §3, §4). The device's reported state, its heartbeat
-- and what it runs (image_install, service_install). Generated from the model with
-- scripts/print-schema.ts, then: overall_status recomputed (post-provisioning, updating)
-- and overall_progress added as generated columns.
ALTER TABLE "device"
  ADD COLUMN "provisioning_progress" integer,
  ADD COLUMN "provisioning_state" varchar(255),
  ADD COLUMN "status" varchar(255),
  ADD COLUMN "ip_address" text,
  ADD COLUMN "public_address" varchar(255),
  ADD COLUMN "mac_address" text,
  ADD COLUMN "download_progress" integer,
  ADD COLUMN "cpu_usage" integer,
  ADD COLUMN "cpu_temp" integer,
  ADD COLUMN "cpu_id" varchar(255),
  ADD COLUMN "memory_usage" bigint,
  ADD COLUMN "memory_total" bigint,
  ADD COLUMN "storage_block_device" varchar(255),
  ADD COLUMN "storage_usage" bigint,
  ADD COLUMN "storage_total" bigint,
  ADD COLUMN "is_undervolted" boolean NOT NULL DEFAULT false,
  ADD COLUMN "latitude" varchar(255),
  ADD COLUMN "longitude" varchar(255),
  ADD COLUMN "custom_latitude" varchar(255),
  ADD COLUMN "custom_longitude" varchar(255),
  ADD COLUMN "is_web_accessible" boolean NOT NULL DEFAULT false,
  ADD COLUMN "is_connected_to_vpn" boolean NOT NULL DEFAULT false,
  ADD COLUMN "is_locked_until__date" timestamp with time zone,
  ADD COLUMN "api_heartbeat_at" timestamp with time zone,
  ADD COLUMN "metrics_reported_at" timestamp with time zone,
  ADD COLUMN "should_be_managed_by__release" integer,
  ADD COLUMN "should_be_operated_by__release" integer;
ALTER TABLE "device" DROP COLUMN "overall_status";
ALTER TABLE "device" ADD COLUMN "overall_status" varchar(255) GENERATED ALWAYS AS (
    CASE
      WHEN NOT "is_active" THEN 'inactive'
      WHEN "provisioning_state" = 'Post-Provisioning' THEN 'post-provisioning'
      WHEN "last_connectivity_event" IS NULL AND "api_heartbeat_state" = 'unknown' THEN 'configuring'
      WHEN NOT "is_online" AND "api_heartbeat_state" IN ('offline', 'unknown') THEN 'disconnected'
      WHEN "update_status" IN ('downloading', 'downloaded', 'applying changes') THEN 'updating'
      WHEN "api_heartbeat_state" = 'timeout' THEN 'reduced-functionality'
      ELSE 'operational'
    END
  ) STORED;
ALTER TABLE "device" ADD COLUMN "overall_progress" integer GENERATED ALWAYS AS (
    CASE
      WHEN "update_status" IN ('downloading', 'downloaded', 'applying changes') THEN "download_progress"
      WHEN "provisioning_state" IS NOT NULL OR "last_connectivity_event" IS NULL THEN "provisioning_progress"
    END
  ) STORED;
CREATE TABLE "image_install" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "device" integer NOT NULL,
  "installs__image" integer NOT NULL,
  "is_provided_by__release" integer,
  "install_date" timestamp with time zone NOT NULL DEFAULT now(),
  "download_progress" integer,
  "status" varchar(255) NOT NULL
);
ALTER TABLE "image_install" ADD CONSTRAINT "image_install_device_installs__image_key" UNIQUE ("device", "installs__image");
CREATE INDEX "image_install_installs__image_idx" ON "image_install" ("installs__image");
CREATE INDEX "image_install_is_provided_by__release_idx" ON "image_install" ("is_provided_by__release");
CREATE TABLE "service_install" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "device" integer NOT NULL,
  "installs__service" integer NOT NULL
);
ALTER TABLE "service_install" ADD CONSTRAINT "service_install_device_installs__service_key" UNIQUE ("device", "installs__service");
CREATE INDEX "service_install_installs__service_idx" ON "service_install" ("installs__service");
ALTER TABLE "image_install" ADD CONSTRAINT "image_install_device_fkey" FOREIGN KEY ("device") REFERENCES "device" ("id") ON DELETE CASCADE;
ALTER TABLE "image_install" ADD CONSTRAINT "image_install_installs__image_fkey" FOREIGN KEY ("installs__image") REFERENCES "image" ("id") ON DELETE CASCADE;
ALTER TABLE "image_install" ADD CONSTRAINT "image_install_is_provided_by__release_fkey" FOREIGN KEY ("is_provided_by__release") REFERENCES "release" ("id") ON DELETE CASCADE;
ALTER TABLE "service_install" ADD CONSTRAINT "service_install_device_fkey" FOREIGN KEY ("device") REFERENCES "device" ("id") ON DELETE CASCADE;
ALTER TABLE "service_install" ADD CONSTRAINT "service_install_installs__service_fkey" FOREIGN KEY ("installs__service") REFERENCES "service" ("id") ON DELETE CASCADE;
ALTER TABLE "device" ADD CONSTRAINT "device_should_be_managed_by__release_fkey" FOREIGN KEY ("should_be_managed_by__release") REFERENCES "release" ("id") ON DELETE SET NULL;
ALTER TABLE "device" ADD CONSTRAINT "device_should_be_operated_by__release_fkey" FOREIGN KEY ("should_be_operated_by__release") REFERENCES "release" ("id") ON DELETE SET NULL;
