import { isValidEmail } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import type { Mailer } from '../../infra/mail/index.js';
import { checkOwnPassword } from '../auth/password-check.js';
import { sendVerificationEmail } from '../account-recovery/email-verification.service.js';
import { RateLimitedError } from '../account-recovery/rate-limit.js';

/** The sign-up's message for an address another account uses (users/user.service.ts). */
export const EMAIL_TAKEN = 'This email is already taken';

/**
 * Rule (spec 1 §5 "Change email"): the new address and the password are required; the
 * address must be valid and not used by another account (case-insensitive). The new
 * address is unverified until its owner verifies it (is_verified false): a verification
 * mail goes to it in the same transaction (account-recovery). When one was sent moments
 * ago (its rate limit), the user resends it from the pending page instead.
 */
export async function changeEmail(
  db: Db,
  mailer: Mailer,
  userId: number,
  input: { email: string; password: string },
  now: Date = new Date(),
): Promise<{ email: string }> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw new BadRequestError('invalid_email');
  await checkOwnPassword(db, userId, input.password);
  return db.tx(async (tx) => {
    const taken = await tx.query('SELECT 1 FROM "user" WHERE lower(email) = lower($1) AND id <> $2', [email, userId]);
    if (taken.rowCount > 0) throw new ConflictError(EMAIL_TAKEN);
    const { rows } = await tx.query<{ email: string }>('SELECT email FROM "user" WHERE id = $1 FOR UPDATE', [userId]);
    // The same address (even in another case) keeps its verification.
    const same = rows[0]?.email.toLowerCase() === email.toLowerCase();
    await tx.query(
      `UPDATE "user" SET email = $2, is_verified = CASE WHEN $3::boolean THEN is_verified ELSE false END,
              has_been_sent_verification_email = CASE WHEN $3::boolean THEN has_been_sent_verification_email ELSE false END
        WHERE id = $1`,
      [userId, email, same],
    );
    if (!same) {
      try {
        await sendVerificationEmail(tx, mailer, { id: userId, email }, now);
      } catch (err) {
        if (!(err instanceof RateLimitedError)) throw err;
      }
    }
    return { email };
  });
}
