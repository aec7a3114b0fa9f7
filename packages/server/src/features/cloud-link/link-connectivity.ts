import type { Db } from '../../infra/db/db.js';

/**
 * Rule (contract: cloud link): a link opening sets `is_online = true` and
 * `last_connectivity_event = now()`; closing sets `is_online = false` and now(). The cloud
 * link is Flotilla's VPN, so `is_connected_to_vpn` follows it as balena's follows its VPN
 * (balena-sdk's `device.isOnline` reads that field).
 *
 * The `cloud_link` row names the device's current link (migration 0009). A close only
 * counts for the current link: a link replaced by a newer one (on this process or
 * another), or whose close is seen late, cannot mark offline a device that has a live link.
 * (`last_connectivity_event` cannot serve as that marker: API heartbeats write it too.)
 */
export async function markLinkOpened(db: Db, deviceId: number, linkId: string): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO cloud_link (device, link_id) VALUES ($1, $2)
       ON CONFLICT (device) DO UPDATE SET link_id = EXCLUDED.link_id, opened_at = now()`,
      [deviceId, linkId],
    );
    await tx.query('UPDATE device SET is_online = true, is_connected_to_vpn = true, last_connectivity_event = now() WHERE id = $1', [deviceId]);
  });
}

export async function markLinkClosed(db: Db, deviceId: number, linkId: string): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM cloud_link WHERE device = $1 AND link_id = $2 RETURNING device)
     UPDATE device SET is_online = false, is_connected_to_vpn = false, last_connectivity_event = now() WHERE id IN (SELECT device FROM gone)`,
    [deviceId, linkId],
  );
}
