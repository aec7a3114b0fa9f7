import { API_KEY_EXPIRY_IN_PAST, API_KEY_NAME_REQUIRED } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';
import { ownsAnyApiKey } from './user-preferences.repository.js';

/**
 * Rule (spec 1 §3, §5) on editing the caller's own named API keys: the name stays non-empty
 * (trimmed) and a new expiry is not in the past. Provisioning keys have their own rule
 * (features/api-keys/provisioning-key-update.ts).
 */
export async function checkUserApiKeyUpdate(
  db: Db,
  actor: DataContext,
  body: HookBody<'api_key', 'PATCH'>,
  ids: readonly number[],
  now: Date = new Date(),
): Promise<void> {
  if (ids.length === 0) return;
  if (!(await ownsAnyApiKey(db, ids, actor.actorId))) return;
  if ('name' in body) {
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (name === '') throw new BadRequestError(API_KEY_NAME_REQUIRED);
    body.name = name;
  }
  if ('expiry_date' in body && body.expiry_date !== null) {
    const expiry = new Date(String(body.expiry_date));
    if (Number.isNaN(expiry.getTime()) || expiry.getTime() <= now.getTime()) throw new BadRequestError(API_KEY_EXPIRY_IN_PAST);
  }
}
