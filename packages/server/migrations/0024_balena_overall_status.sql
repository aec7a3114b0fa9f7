-- Issue 12: overall_status and overall_progress follow balena's computed definition
-- (open-balena-api's device model with balenaCloud's is_active case; the values of
-- balena-sdk 23's DeviceOverallStatus), over the device's own columns:
--   inactive > post-provisioning > configuring (never connected: no cloud link, no API
--   heartbeat, no connectivity event) > disconnected (no cloud link, heartbeat offline or
--   unknown) > reduced-functionality (cloud link up but heartbeat timed out, offline or
--   unknown; or heartbeat online without the cloud link) > updating (downloading with a
--   download progress) > configuring (a provisioning progress) > operational.
-- A cloud link down with the heartbeat in 'timeout' is not reduced functionality (balena's
-- reading). update_status no longer decides 'updating' on its own; the agent reports
-- status 'Downloading' with its download progress as balena's supervisor does.
ALTER TABLE "device" DROP COLUMN "overall_status";
ALTER TABLE "device" ADD COLUMN "overall_status" varchar(255) GENERATED ALWAYS AS (
    CASE
      WHEN NOT "is_active" THEN 'inactive'
      WHEN "provisioning_state" = 'Post-Provisioning' THEN 'post-provisioning'
      WHEN NOT "is_online" AND "last_connectivity_event" IS NULL AND "api_heartbeat_state" = 'unknown' THEN 'configuring'
      WHEN NOT "is_online" AND "api_heartbeat_state" IN ('offline', 'unknown') THEN 'disconnected'
      WHEN ("is_online" AND "api_heartbeat_state" IN ('timeout', 'offline', 'unknown'))
        OR (NOT "is_online" AND "api_heartbeat_state" = 'online') THEN 'reduced-functionality'
      WHEN "download_progress" IS NOT NULL AND "status" = 'Downloading' THEN 'updating'
      WHEN "provisioning_progress" IS NOT NULL THEN 'configuring'
      ELSE 'operational'
    END
  ) STORED;
CREATE INDEX "device_application_status_idx" ON "device" ("belongs_to__application", "overall_status");

-- balena's overall_progress: none while inactive or disconnected after having connected;
-- the provisioning progress while post-provisioning or never connected; the download
-- progress while downloading; else the provisioning progress.
ALTER TABLE "device" DROP COLUMN "overall_progress";
ALTER TABLE "device" ADD COLUMN "overall_progress" integer GENERATED ALWAYS AS (
    CASE
      WHEN NOT "is_active" THEN NULL
      WHEN "provisioning_state" = 'Post-Provisioning' THEN "provisioning_progress"
      WHEN NOT "is_online" AND "last_connectivity_event" IS NULL AND "api_heartbeat_state" = 'unknown' THEN "provisioning_progress"
      WHEN NOT "is_online" AND "api_heartbeat_state" IN ('offline', 'unknown') THEN NULL
      WHEN "download_progress" IS NOT NULL AND "status" = 'Downloading' THEN "download_progress"
      ELSE "provisioning_progress"
    END
  ) STORED;
