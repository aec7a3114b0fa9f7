import { isValidEmail } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError } from '../../infra/errors.js';
import type { Mailer } from '../../infra/mail/index.js';
import { checkOwnPassword } from '../../infra/auth/password-check.js';
import { sendVerificationEmail } from '../account-recovery/index.js';
import { RateLimitedError } from '../../infra/auth/rate-limit.js';
import { emailTakenByOther, lockUserEmail, setUserEmail } from './account.repository.js';

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
    if (await emailTakenByOther(tx, email, userId)) throw new ConflictError(EMAIL_TAKEN);
    const current = await lockUserEmail(tx, userId);
    // The same address (even in another case) keeps its verification.
    const same = current?.toLowerCase() === email.toLowerCase();
    await setUserEmail(tx, userId, email, same);
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
