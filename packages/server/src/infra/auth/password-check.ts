import { PASSWORD_MAX_LENGTH } from '@flotilla/model';
import type { Db } from '../db/db.js';
import { BadRequestError, UnauthorizedError } from '../errors.js';
import { verifyPassword } from './password.js';
import { findPasswordUser, type PasswordUserRow } from './auth.repository.js';
import { beginLoginAttempt, loginAccountKey, loginSucceeded } from './login-throttle.js';

/** Spec 1 §8 "Invalid password: fields_errors.invalid_password" (the dashboard shows the key's text). */
export const INVALID_PASSWORD = 'invalid_password';
/** A user without a password (social login) must set one first (spec 1 §5 delete account). */
export const PASSWORD_NOT_SET = 'password_not_set';

export type CheckedUser = PasswordUserRow;

/**
 * Checks a signed-in user's password for a sensitive action (re-verification, change of
 * password or email, account deletion). Wrong passwords count towards the same per-username
 * lock as failed logins (login-throttle.ts: 429 with Retry-After once locked; `address` is the
 * caller's, as for logins), so these
 * endpoints cannot be used to guess a password faster than the login form.
 */
export async function checkOwnPassword(db: Db, userId: number, password: string, address = ''): Promise<CheckedUser> {
  const user = await findPasswordUser(db, userId);
  if (!user) throw new UnauthorizedError('You have to log in');
  if (!user.has_password_set || !user.password) throw new BadRequestError(PASSWORD_NOT_SET);
  const account = loginAccountKey(user.id, user.username);
  await beginLoginAttempt(db, account, address, user.username);
  const ok = password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(user.password, password));
  if (!ok) throw new BadRequestError(INVALID_PASSWORD);
  await loginSucceeded(db, account, address);
  return user;
}
