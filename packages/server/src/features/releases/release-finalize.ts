import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { anyFinal } from './release.repository.js';
import type { HookBody } from '../../infra/odata/index.js';

/** Rule (spec 2 §4): finalizing is one-way; a final release cannot become a draft again. */
export async function checkFinalizeOneWay(db: Db, body: HookBody<'release', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (body.is_final !== false || ids.length === 0) return;
  if (await anyFinal(db, ids)) throw new BadRequestError('already finalized');
}
