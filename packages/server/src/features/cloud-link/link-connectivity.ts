import type { Db } from '../../infra/db/db.js';
import { deleteCurrentLinkAndMarkOffline, markDeviceOnline, upsertCurrentLink } from './cloud-link.repository.js';

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
    await upsertCurrentLink(tx, deviceId, linkId);
    await markDeviceOnline(tx, deviceId);
  });
}

export async function markLinkClosed(db: Db, deviceId: number, linkId: string): Promise<void> {
  await deleteCurrentLinkAndMarkOffline(db, deviceId, linkId);
}
