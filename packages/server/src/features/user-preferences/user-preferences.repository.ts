import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The user preferences feature's SQL: what a user owns.

/** Whether one of these API keys belongs to the actor. */
export async function ownsAnyApiKey(db: Db, apiKeyIds: readonly Row<'api_key'>['id'][], actorId: Row<'actor'>['id'] | null): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM api_key WHERE id = ANY($1::int[]) AND is_of__actor = $2 LIMIT 1', [apiKeyIds, actorId]);
  return rowCount > 0;
}
