import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';
import { anyKeyOfOtherActor } from './api-keys.repository.js';

/**
 * Rule: on a provisioning key (a key that is not the caller's own) fleet operators change
 * only the name and the description; a longer life is a new key.
 */
export async function checkProvisioningKeyUpdate(db: Db, actor: DataContext, body: HookBody<'api_key', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !('expiry_date' in body)) return;
  if (await anyKeyOfOtherActor(db, ids, actor.actorId)) throw new BadRequestError('Only the name and description of a provisioning key can be changed');
}
