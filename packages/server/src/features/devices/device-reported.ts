import { osVariantOf } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rules for the device-reported fields a user may write through the data API (balena lets a
 * user with write rights on a device set them; the device's next report overwrites them).
 * They keep the derived state as balena keeps it:
 *  - setting `is_connected_to_vpn` sets `is_online` to the same value unless the write names it;
 *  - setting `is_online` is a connectivity event: `last_connectivity_event` becomes now unless
 *    the write names it (so a client may still record a device that never connected);
 *  - setting `os_version` without `os_variant` reads the variant from the version's trailing
 *    parentheses ('balenaOS 2.88.4 (dev)'), else none.
 * overall_status and overall_progress are generated from these columns, and
 * last_update_status_event follows update_status (a trigger), so they stay consistent.
 */
export function deriveReportedFields(body: HookBody<'device', 'POST' | 'PATCH'>, now: Date = new Date()): void {
  if (body.is_connected_to_vpn !== undefined && body.is_connected_to_vpn !== null && !('is_online' in body)) {
    body.is_online = body.is_connected_to_vpn;
  }
  if (body.is_online !== undefined && body.is_online !== null && !('last_connectivity_event' in body)) {
    body.last_connectivity_event = now.toISOString();
  }
  if (typeof body.os_version === 'string' && !('os_variant' in body)) body.os_variant = osVariantOf(body.os_version);
}

/**
 * Rule: a device runs only a release of its own fleet (as a pin must name one). Checked on
 * the written rows, after a move in the same write. The release was already read-checked
 * (infra/odata/write.ts), so this tells the caller nothing about other tenants.
 */
export async function checkRunningRelease(db: Db, body: HookBody<'device', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || body.is_running__release === undefined || body.is_running__release === null) return;
  const { rowCount } = await db.query(
    `SELECT 1 FROM device d JOIN release r ON r.id = d.is_running__release
      WHERE d.id = ANY($1::int[]) AND r.belongs_to__application <> d.belongs_to__application
      LIMIT 1`,
    [ids],
  );
  if (rowCount) throw new BadRequestError('A device can only run a release of its own fleet');
}
