import { passwordProblem } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { hashPassword } from '../../infra/auth/password.js';
import { checkOwnPassword } from '../../infra/auth/password-check.js';
import { hasPasswordSet, setPasswordHash } from './account.repository.js';
import { isSamlOnlyUser, SAML_NO_PASSWORD } from '../saml/index.js';

export const CURRENT_PASSWORD_REQUIRED = 'The current password is required';

/**
 * Rule (spec 1 §5 "Change password"): the current password is required when the user has
 * one (a social-login user sets a first one without it); the new one is 8 to 64 characters.
 * Checks run before anything is written; a wrong current password counts as a failed login.
 */
export async function changePassword(db: Db, userId: number, input: { currentPassword?: string; password: string }): Promise<void> {
  const problem = passwordProblem(input.password);
  if (problem) throw new BadRequestError(problem);
  // A SAML account has no password (spec 1 §6; a merged account keeps the one it had).
  if (await isSamlOnlyUser(db, userId)) throw new BadRequestError(SAML_NO_PASSWORD);
  if (await hasPasswordSet(db, userId)) {
    if (!input.currentPassword) throw new BadRequestError(CURRENT_PASSWORD_REQUIRED);
    await checkOwnPassword(db, userId, input.currentPassword);
  }
  const hash = await hashPassword(input.password);
  await setPasswordHash(db, userId, hash);
}
