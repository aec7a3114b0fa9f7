import { ACCOUNT_MESSAGES, EMAIL_VERIFICATION_TOKEN_TTL_SECONDS, VERIFICATION_EMAIL_INTERVAL_SECONDS } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { emailVerification, type Mailer } from '../../infra/mail/index.js';
import { takeRequestSlot } from '../../infra/auth/rate-limit.js';
import { hashSecret, newSecret } from './tokens.js';
import { findVerificationUser, insertVerificationToken, lockVerificationToken, markVerificationEmailSent, verifyUser } from './account-recovery.repository.js';

/**
 * The dashboard route a verification mail links to. Segment order token, then email, as
 * spec 1 §2's route table gives it (docs/decisions.md, "Accounts (issue 6)").
 */
export function verificationPath(token: string, email: string): string {
  return `/user/verify-email/${encodeURIComponent(token)}/${encodeURIComponent(email)}`;
}

/**
 * Creates a single-use verification token for the user's current address (only its hash is
 * stored), marks the mail as sent and queues the mail in `db`'s transaction. At most one
 * verification mail per user per VERIFICATION_EMAIL_INTERVAL_SECONDS (429 otherwise).
 */
export async function sendVerificationEmail(db: Db, mailer: Mailer, user: { id: number; email: string }, now: Date): Promise<void> {
  await takeRequestSlot(db, 'verification-email', String(user.id), { max: 1, windowSeconds: VERIFICATION_EMAIL_INTERVAL_SECONDS }, now);
  const token = newSecret();
  await insertVerificationToken(db, {
    userId: user.id,
    email: user.email,
    hash: hashSecret(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TOKEN_TTL_SECONDS * 1000),
  });
  await markVerificationEmailSent(db, user.id);
  const mail = emailVerification({
    email: user.email,
    verifyUrl: mailer.publicLink(verificationPath(token, user.email)),
    validHours: EMAIL_VERIFICATION_TOKEN_TTL_SECONDS / 3600,
  });
  await mailer.queue(db, { to: user.email, ...mail });
}

/** A resend (the SDK's requestVerificationEmail): nothing to do for a verified user. */
export async function resendVerificationEmail(db: Db, mailer: Mailer, userId: number, now: Date): Promise<boolean> {
  const user = await findVerificationUser(db, userId);
  if (!user || user.is_verified) return false;
  await sendVerificationEmail(db, mailer, user, now);
  return true;
}

/**
 * `POST /user/v1/verify-email {verificationToken, email}`: an unused, unexpired token issued
 * for this address (still the user's address) verifies the user and is used up, with every
 * other outstanding token of the user. Any failure is the one generic 400 (spec 1 §8).
 */
export async function verifyEmail(db: Db, token: unknown, email: unknown, now: Date): Promise<number> {
  if (typeof token !== 'string' || token === '' || typeof email !== 'string' || email.trim() === '') {
    throw new BadRequestError(ACCOUNT_MESSAGES.verificationMissing);
  }
  return db.tx(async (tx) => {
    const row = await lockVerificationToken(tx, hashSecret(token));
    const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
    if (!row || row.used_at !== null || row.expires_at.getTime() <= now.getTime() || !sameAddress(row.email, email) || !sameAddress(row.current_email, row.email)) {
      throw new BadRequestError(ACCOUNT_MESSAGES.verificationFailed);
    }
    await verifyUser(tx, row.user, now);
    return row.user;
  });
}
