import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';

/**
 * Rule: on a provisioning key (a key that is not the caller's own) fleet operators change
 * only the name and the description; a longer life is a new key.
 */
export async function checkProvisioningKeyUpdate(db: Db, actor: DataContext, body: HookBody<'api_key', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || !('expiry_date' in body)) return;
  const { rowCount } = await db.query('SELECT 1 FROM api_key WHERE id = ANY($1::int[]) AND is_of__actor IS DISTINCT FROM $2 LIMIT 1', [
    ids,
    actor.actorId,
  ]);
  if (rowCount) throw new BadRequestError('Only the name and description of a provisioning key can be changed');
}
