import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a device moved to another fleet loses a pin to a release of its old fleet (spec 2
 * §5 Devices warns that moved devices lose their pinned release), unless the same write
 * pins it anew. Runs before the pin check.
 */
export async function dropPinsOfOldFleet(db: Db, body: HookBody<'device', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !('belongs_to__application' in body) || 'is_pinned_on__release' in body) return;
  await db.query(
    `UPDATE device d SET is_pinned_on__release = NULL
       FROM release r
      WHERE d.id = ANY($1::int[]) AND r.id = d.is_pinned_on__release AND r.belongs_to__application <> d.belongs_to__application`,
    [ids],
  );
}

/**
 * Rule: a device is pinned only to a successful release of its own fleet (spec 2 §3, pin to
 * release). Checked on the written rows (after the permission checks, after a move).
 */
export async function checkDevicePin(db: Db, body: HookBody<'device', 'POST' | 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || body.is_pinned_on__release === undefined || body.is_pinned_on__release === null) return;
  const { rowCount } = await db.query(
    `SELECT 1 FROM device d JOIN release r ON r.id = d.is_pinned_on__release
      WHERE d.id = ANY($1::int[]) AND (r.belongs_to__application <> d.belongs_to__application OR r.status <> 'success')
      LIMIT 1`,
    [ids],
  );
  if (rowCount) throw new BadRequestError("A device can only be pinned to a successful release of its own fleet");
}
