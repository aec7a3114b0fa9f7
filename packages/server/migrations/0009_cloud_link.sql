-- Issue 5: which cloud link is a device's current one (features/cloud-link). Not a resource
-- of the data API: only the server's link code reads and writes it. A device has at most
-- one link; a link's close marks the device offline only while it is still the current one,
-- so an old link closing late cannot undo a newer link's `is_online`.
CREATE TABLE "cloud_link" (
  "device" integer PRIMARY KEY REFERENCES "device" ("id") ON DELETE CASCADE,
  "link_id" uuid NOT NULL,
  "opened_at" timestamp with time zone NOT NULL DEFAULT now()
);
