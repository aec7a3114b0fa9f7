import type { Db } from '../../infra/db/db.js';
import type { LogLineInput, StoredLogLine } from './log-lines.js';

/** The device-logs feature's hand-written SQL (table `device_log`, migration 0027). */

export interface PendingLine extends LogLineInput {
  deviceId: number;
  createdAt: number;
}

/**
 * Inserts `lines` in one statement (arrays unnested in order), skipping lines of devices that
 * no longer exist. Returns, per device, the new ids in ascending order: within one statement
 * identity values are drawn row by row in the order the rows are produced, so the k-th id of a
 * device is its k-th line.
 */
export async function insertLogLines(db: Db, lines: readonly PendingLine[]): Promise<Map<number, number[]>> {
  // One JSON parameter (a column array each: JSON.stringify is native, pg's array literals are
  // escaped element by element in JavaScript, which cost more than the INSERT's planning).
  const columns = { d: [] as number[], c: [] as number[], t: [] as number[], m: [] as string[], s: [] as boolean[], e: [] as boolean[], v: [] as (number | null)[] };
  for (const l of lines) {
    columns.d.push(l.deviceId);
    columns.c.push(l.createdAt);
    columns.t.push(l.timestamp);
    columns.m.push(l.message);
    columns.s.push(l.isSystem);
    columns.e.push(l.isStdErr);
    columns.v.push(l.serviceId);
  }
  const { rows } = await db.query<{ id: number; device: number }>(
    `INSERT INTO device_log (device, created_at, "timestamp", message, is_system, is_stderr, service_id)
     SELECT u.device, u.created_at, u.ts, u.message, u.is_system, u.is_stderr, u.service_id
       FROM json_to_record($1::json) AS j(d int[], c bigint[], t bigint[], m text[], s bool[], e bool[], v int[]),
            unnest(j.d, j.c, j.t, j.m, j.s, j.e, j.v)
            WITH ORDINALITY AS u(device, created_at, ts, message, is_system, is_stderr, service_id, ord)
      WHERE EXISTS (SELECT 1 FROM device d WHERE d.id = u.device)
      ORDER BY u.ord
     RETURNING id, device`,
    [JSON.stringify(columns)],
  );
  const ids = new Map<number, number[]>();
  for (const r of rows) {
    let list = ids.get(r.device);
    if (!list) ids.set(r.device, (list = []));
    list.push(r.id);
  }
  for (const list of ids.values()) list.sort((a, b) => a - b);
  return ids;
}

/** Keeps only the newest `keep` lines of each of `deviceIds`. Returns how many lines went. */
export async function pruneToNewest(db: Db, deviceIds: readonly number[], keep: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM device_log l
      USING (SELECT d.device,
                    (SELECT id FROM device_log WHERE device = d.device ORDER BY id DESC OFFSET $2 LIMIT 1) AS cutoff
               FROM unnest($1::int[]) AS d(device)) c
      WHERE l.device = c.device AND l.id <= c.cutoff`,
    [deviceIds, keep],
  );
  return rowCount;
}

/** Deletes up to `limit` lines stored before `before` (ms). Returns how many went. */
export async function deleteLinesBefore(db: Db, before: number, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM device_log WHERE ctid = ANY (ARRAY(SELECT ctid FROM device_log WHERE created_at < $1 LIMIT $2))`,
    [before, limit],
  );
  return rowCount;
}

interface LineRow {
  id: number;
  message: string;
  timestamp: number;
  created_at: number;
  is_system: boolean;
  is_stderr: boolean;
  service_id: number | null;
}

const toLine = (r: LineRow): StoredLogLine => ({
  id: r.id,
  message: r.message,
  timestamp: r.timestamp,
  createdAt: r.created_at,
  isSystem: r.is_system,
  isStdErr: r.is_stderr,
  ...(r.service_id === null ? {} : { serviceId: r.service_id }),
});

/** The newest `count` lines of the device stored at or after `since` (ms), oldest first. */
export async function readNewestLines(db: Db, deviceId: number, count: number, since: number): Promise<StoredLogLine[]> {
  if (count <= 0) return [];
  const { rows } = await db.query<LineRow>(
    `SELECT id, message, "timestamp", created_at, is_system, is_stderr, service_id
       FROM device_log WHERE device = $1 AND created_at >= $2
      ORDER BY id DESC LIMIT $3`,
    [deviceId, since, count],
  );
  return rows.reverse().map(toLine);
}

/** Deletes every line of the device. */
export async function deleteDeviceLines(db: Db, deviceId: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM device_log WHERE device = $1', [deviceId]);
  return rowCount;
}

/** The uuid of device `deviceId`, or undefined when it is gone. */
export async function deviceUuidOf(db: Db, deviceId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ uuid: string }>('SELECT uuid FROM device WHERE id = $1', [deviceId]);
  return rows[0]?.uuid;
}
