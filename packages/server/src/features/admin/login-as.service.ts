import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../infra/errors.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { userByUsername } from './admin.repository.js';

export interface LoginAsResult {
  token: string;
  user: { id: number; username: string };
}

/**
 * Admin login-as (spec 1 §6, §7): a session token for `username` whose `actualUser` is the
 * administrator, so every later request, the dashboard's banner and the log can tell who
 * is really acting. Another platform administrator is refused (docs/decisions.md): it
 * would let one administrator act with, and hide behind, a peer's account.
 */
export async function loginAs(db: Db, jwtSecret: string, administratorId: number, username: string): Promise<LoginAsResult> {
  const name = username.trim();
  if (!name) throw new BadRequestError('A username is required');
  const user = await userByUsername(db, name);
  if (!user) throw new NotFoundError('User not found');
  if (user.id === administratorId) throw new BadRequestError('You are already signed in as this user');
  if (user.platform_role === 'administrator') {
    throw new ForbiddenError('You cannot log in as another platform administrator');
  }
  // The administrator passed their own login; the user's second factor is not theirs to give.
  const token = await issueSessionToken(db, jwtSecret, user.id, Date.now(), administratorId, false);
  return { token, user: { id: user.id, username: user.username } };
}
