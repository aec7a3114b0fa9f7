import { validateSshKey } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, UnauthorizedError } from '../../infra/errors.js';
import type { DataContext, HookBody } from '../../infra/odata/index.js';
import { userIdOfActor } from './ssh-key.repository.js';

/**
 * Rule (spec 1 §5): an SSH key's title and key are trimmed and mandatory, and the key
 * matches the pattern. A POST without `user` is the caller's own key (the create
 * permission refuses anybody else's).
 */
export async function checkNewSshKey(db: Db, actor: DataContext, body: HookBody<'user__has__public_key', 'POST'>): Promise<void> {
  const valid = validateSshKey(body.title, body.public_key);
  if ('error' in valid) throw new BadRequestError(valid.error);
  body.title = valid.title;
  body.public_key = valid.publicKey;
  if (body.user === undefined) {
    const userId = await userIdOfActor(db, actor.actorId);
    if (userId === undefined) throw new UnauthorizedError('You have to log in');
    body.user = userId;
  }
}
