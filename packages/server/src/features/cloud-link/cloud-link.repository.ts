import type { Db } from '../../infra/db/db.js';

/** The cloud link's hand-written SQL (link-connectivity.ts says what it means). */

/** Records `linkId` as the device's current link. */
export async function upsertCurrentLink(db: Db, deviceId: number, linkId: string): Promise<void> {
  await db.query(
    `INSERT INTO cloud_link (device, link_id) VALUES ($1, $2)
       ON CONFLICT (device) DO UPDATE SET link_id = EXCLUDED.link_id, opened_at = now()`,
    [deviceId, linkId],
  );
}

/** Marks the device online (and connected) now. */
export async function markDeviceOnline(db: Db, deviceId: number): Promise<void> {
  await db.query('UPDATE device SET is_online = true, is_connected_to_vpn = true, last_connectivity_event = now() WHERE id = $1', [deviceId]);
}

/** Forgets the device's link if `linkId` is its current one, and then marks the device offline now. */
export async function deleteCurrentLinkAndMarkOffline(db: Db, deviceId: number, linkId: string): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM cloud_link WHERE device = $1 AND link_id = $2 RETURNING device)
     UPDATE device SET is_online = false, is_connected_to_vpn = false, last_connectivity_event = now() WHERE id IN (SELECT device FROM gone)`,
    [deviceId, linkId],
  );
}

/** Of the devices `deviceIds`, those in one of the fleets `fleetIds`. */
export async function devicesInFleets(db: Db, deviceIds: readonly number[], fleetIds: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM device WHERE id = ANY($1::int[]) AND belongs_to__application = ANY($2::int[])', [
    deviceIds,
    fleetIds,
  ]);
  return rows.map((r) => r.id);
}
