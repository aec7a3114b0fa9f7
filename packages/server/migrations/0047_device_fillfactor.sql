-- Issue 21 (soak): every poll's heartbeat and every state report rewrites its device row. With
-- full pages (fillfactor 100) the new row version lands on another page, so PostgreSQL also
-- writes an entry in each of the table's seven indexes; the soak measured 17 % of the device
-- updates as heap-only (HOT). Room left in each page lets an update that changes no indexed
-- column stay on its page and skip the indexes. Applies to pages written from now on (new
-- devices, and existing ones as their pages are rewritten); old nodes are unaffected.
ALTER TABLE "device" SET (fillfactor = 70);
