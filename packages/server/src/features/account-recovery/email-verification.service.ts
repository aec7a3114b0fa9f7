import { ACCOUNT_MESSAGES, EMAIL_VERIFICATION_TOKEN_TTL_SECONDS, VERIFICATION_EMAIL_INTERVAL_SECONDS } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { emailVerification, type Mailer } from '../../infra/mail/index.js';
import { takeRequestSlot } from './rate-limit.js';
import { hashSecret, newSecret } from './tokens.js';

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
  await db.query(
    `INSERT INTO email_verification_token ("user", email, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [user.id, user.email, hashSecret(token), now, new Date(now.getTime() + EMAIL_VERIFICATION_TOKEN_TTL_SECONDS * 1000)],
  );
  await db.query('UPDATE "user" SET has_been_sent_verification_email = true WHERE id = $1', [user.id]);
  const mail = emailVerification({
    email: user.email,
    verifyUrl: mailer.publicLink(verificationPath(token, user.email)),
    validHours: EMAIL_VERIFICATION_TOKEN_TTL_SECONDS / 3600,
  });
  await mailer.queue(db, { to: user.email, ...mail });
}

/** A resend (the SDK's requestVerificationEmail): nothing to do for a verified user. */
export async function resendVerificationEmail(db: Db, mailer: Mailer, userId: number, now: Date): Promise<boolean> {
  const { rows } = await db.query<{ id: number; email: string; is_verified: boolean }>(
    'SELECT id, email, is_verified FROM "user" WHERE id = $1',
    [userId],
  );
  const user = rows[0];
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
    const { rows } = await tx.query<{ id: number; user: number; email: string; expires_at: Date; used_at: Date | null; current_email: string }>(
      `SELECT t.id, t."user", t.email, t.expires_at, t.used_at, u.email AS current_email
         FROM email_verification_token t JOIN "user" u ON u.id = t."user"
        WHERE t.token_hash = $1 FOR UPDATE OF t`,
      [hashSecret(token)],
    );
    const row = rows[0];
    const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
    if (!row || row.used_at !== null || row.expires_at.getTime() <= now.getTime() || !sameAddress(row.email, email) || !sameAddress(row.current_email, row.email)) {
      throw new BadRequestError(ACCOUNT_MESSAGES.verificationFailed);
    }
    await tx.query('UPDATE email_verification_token SET used_at = $2 WHERE "user" = $1 AND used_at IS NULL', [row.user, now]);
    await tx.query('UPDATE "user" SET is_verified = true WHERE id = $1', [row.user]);
    return row.user;
  });
}
