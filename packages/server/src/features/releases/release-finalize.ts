import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/** Rule (spec 2 §4): finalizing is one-way; a final release cannot become a draft again. */
export async function checkFinalizeOneWay(db: Db, body: HookBody<'release', 'PATCH'>, ids: readonly number[]): Promise<void> {
  if (body.is_final !== false || ids.length === 0) return;
  const { rowCount } = await db.query('SELECT 1 FROM release WHERE id = ANY($1::int[]) AND is_final LIMIT 1', [ids]);
  if (rowCount > 0) throw new BadRequestError('already finalized');
}
