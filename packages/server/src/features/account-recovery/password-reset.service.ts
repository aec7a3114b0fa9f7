import { clearAccountLoginFailures } from '../../infra/auth/login-throttle.js';
import {
  ACCOUNT_MESSAGES,
  isValidEmail,
  passwordProblem,
  PASSWORD_RESET_CODE_TTL_SECONDS,
  PASSWORD_RESET_EMAIL_INTERVAL_SECONDS,
  PASSWORD_RESET_IP_MAX_REQUESTS,
  PASSWORD_RESET_IP_WINDOW_SECONDS,
} from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { hashPassword } from '../../infra/auth/password.js';
import { passwordReset, type Mailer } from '../../infra/mail/index.js';
import { takeRequestSlot } from '../../infra/auth/rate-limit.js';
import { hashSecret, newSecret } from './tokens.js';
import { isSamlOnlyUser, SAML_NO_PASSWORD } from '../saml/index.js';
import { findUserByEmail, insertResetCode, lockResetCode, setPasswordFromReset } from './account-recovery.repository.js';

/** The dashboard route a reset mail links to (spec 1 §2). */
export function resetPasswordPath(loginCode: string): string {
  return `/user/reset-password/${encodeURIComponent(loginCode)}`;
}

/**
 * A reset request. Rate-limited per IP and per address whether or not the address has an
 * account (429 with the next valid time), and otherwise answered the same either way: only
 * an existing account gets a mail with a single-use login code (its hash stored) valid for
 * PASSWORD_RESET_CODE_TTL_SECONDS.
 */
export async function requestPasswordReset(db: Db, mailer: Mailer, email: string, ip: string, now: Date): Promise<void> {
  const address = email.trim();
  if (!isValidEmail(address)) throw new BadRequestError('Invalid email');
  await db.tx(async (tx) => {
    await takeRequestSlot(tx, 'password-reset-ip', ip, { max: PASSWORD_RESET_IP_MAX_REQUESTS, windowSeconds: PASSWORD_RESET_IP_WINDOW_SECONDS }, now);
    await takeRequestSlot(tx, 'password-reset-email', address, { max: 1, windowSeconds: PASSWORD_RESET_EMAIL_INTERVAL_SECONDS }, now);
    const user = await findUserByEmail(tx, address);
    if (!user) return;
    const code = newSecret();
    await insertResetCode(tx, { userId: user.id, hash: hashSecret(code), createdAt: now, expiresAt: new Date(now.getTime() + PASSWORD_RESET_CODE_TTL_SECONDS * 1000) });
    const mail = passwordReset({ resetUrl: mailer.publicLink(resetPasswordPath(code)), validMinutes: PASSWORD_RESET_CODE_TTL_SECONDS / 60 });
    await mailer.queue(tx, { to: user.email, ...mail });
  });
}

/**
 * Sets a new password (8 to 64) with a login code: a used or unknown code is invalid, an
 * old one expired (spec 1 §8). Every outstanding code of the user is used up; the mailbox
 * that received the code is thereby verified. Returns the user's id.
 */
export async function resetPassword(db: Db, code: unknown, password: unknown, now: Date): Promise<number> {
  if (typeof code !== 'string' || code.trim() === '') throw new BadRequestError(ACCOUNT_MESSAGES.resetCodeRequired);
  if (typeof password !== 'string') throw new BadRequestError(passwordProblem('') ?? 'Password required');
  const problem = passwordProblem(password);
  if (problem) throw new BadRequestError(problem);
  const passwordHash = await hashPassword(password);
  return db.tx(async (tx) => {
    const row = await lockResetCode(tx, hashSecret(code.trim()));
    if (!row || row.used_at !== null) throw new BadRequestError(ACCOUNT_MESSAGES.resetCodeInvalid);
    if (row.expires_at.getTime() <= now.getTime()) throw new BadRequestError(ACCOUNT_MESSAGES.resetCodeExpired);
    // A SAML account has no password to reset (spec 1 §6; a merged account keeps the one it had).
    if (await isSamlOnlyUser(tx, row.user)) throw new BadRequestError(SAML_NO_PASSWORD);
    await setPasswordFromReset(tx, row.user, passwordHash, now);
    // A new password lifts the failed-login lock of the account.
    await clearAccountLoginFailures(tx, row.user);
    return row.user;
  });
}
