-- Issue 5: the fleet device table over 100,000 devices (bench (l)). The table's page is
-- ordered by last_connectivity_event desc, id desc within one fleet; this index serves it
-- in that order, so the first page reads 50 index entries instead of sorting the fleet.
-- The per-status counts (overall_status is a stored generated column) and the fleet's
-- $count are index-only scans of the second one. Both start with belongs_to__application,
-- so the single-column index they supersede (and its write cost) goes.
CREATE INDEX "device_application_connectivity_idx" ON "device" ("belongs_to__application", "last_connectivity_event" DESC, "id" DESC);
CREATE INDEX "device_application_status_idx" ON "device" ("belongs_to__application", "overall_status");
DROP INDEX "device_belongs_to__application_idx";
