import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { hasBadPin, unpinFromOtherFleets } from './device.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a device moved to another fleet loses a pin to a release of its old fleet (spec 2
 * §5 Devices warns that moved devices lose their pinned release), unless the same write
 * pins it anew. Runs before the pin check.
 */
export async function dropPinsOfOldFleet(db: Db, body: HookBody<'device', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !('belongs_to__application' in body) || 'is_pinned_on__release' in body) return;
  await unpinFromOtherFleets(db, ids);
}

/**
 * Rule: a device is pinned only to a successful release of its own fleet (spec 2 §3, pin to
 * release). Checked on the written rows (after the permission checks, after a move).
 */
export async function checkDevicePin(db: Db, body: HookBody<'device', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || body.is_pinned_on__release === undefined || body.is_pinned_on__release === null) return;
  if (await hasBadPin(db, ids)) throw new BadRequestError("A device can only be pinned to a successful release of its own fleet");
}
