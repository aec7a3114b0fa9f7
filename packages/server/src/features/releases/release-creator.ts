import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { ROOT_PERMISSIONS, type DataContext, type HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a release is created by the calling user (`balena deploy` does not name one). A user
 * cannot name another user as the creator; only the system (root context) may. Callers
 * that are not users (device or provisioning keys) leave it empty.
 */
export async function setReleaseCreator(db: Db, actor: DataContext, body: HookBody<'release', 'POST'>): Promise<void> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM "user" WHERE actor = $1', [actor.actorId]);
  const caller = rows[0]?.id ?? null;
  const named = body.is_created_by__user;
  if (named === undefined || named === null) {
    body.is_created_by__user = caller;
    return;
  }
  if (named !== caller && actor.permissions !== ROOT_PERMISSIONS) {
    throw new BadRequestError('A release can only be created by the calling user');
  }
}
