import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { hasOtherArchitectureThan } from './fleet.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a fleet's default device type changes only to a type of the same CPU architecture
 * (spec 2 §5 Fleets: fleets of different CPU architectures cannot be mixed).
 */
export async function checkDefaultDeviceTypeChange(db: Db, body: HookBody<'application', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !('is_for__device_type' in body)) return;
  if (await hasOtherArchitectureThan(db, ids, body.is_for__device_type)) {
    throw new BadRequestError('The default device type must have the same CPU architecture: fleets of different CPU architectures cannot be mixed');
  }
}
