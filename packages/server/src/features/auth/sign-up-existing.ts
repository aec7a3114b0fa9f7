import { randomBytes } from 'node:crypto';
import { SESSION_TOKEN_LIFETIME_SECONDS } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { claimPermissions } from '../../infra/auth/authenticate.js';
import { signJwt } from '../../infra/auth/jwt.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { signUpAttempt } from '../../infra/mail/templates.js';
import { findOwnerEmail, nextUserId } from './auth.repository.js';
import { RateLimitedError, takeRequestSlot } from '../../infra/auth/rate-limit.js';

/** One notice per address per hour at most, so sign-ups cannot be used to flood a mailbox. */
export const SIGN_UP_NOTICE_INTERVAL_SECONDS = 60 * 60;

/**
 * A sign-up with an address that already has an account (issue 11, e-mail enumeration): the
 * answer has the shape of a successful sign-up (201 and a session token with the claims a
 * new account's token has and the next user id), but the token is signed with a throw-away
 * key, so it opens nothing (401 on use, as an expired session). The owner gets an e-mail
 * saying someone tried. The password was hashed before this point, as for a new account.
 */
export async function answerSignUpForExistingEmail(db: Db, mailer: Mailer, email: string, now: Date): Promise<string> {
  await db.tx(async (tx) => {
    const ownerEmail = await findOwnerEmail(tx, email);
    if (ownerEmail === undefined) return;
    try {
      await takeRequestSlot(tx, 'sign-up-existing-email', ownerEmail, { max: 1, windowSeconds: SIGN_UP_NOTICE_INTERVAL_SECONDS }, now);
    } catch (err) {
      if (err instanceof RateLimitedError) return;
      throw err;
    }
    const mail = signUpAttempt({ loginUrl: mailer.publicLink('/login'), resetUrl: mailer.publicLink('/password-reset') });
    await mailer.queue(tx, { to: ownerEmail, ...mail });
  });
  const id = await nextUserId(db);
  return signJwt({ id, authTime: now.getTime(), actualUser: id, permissions: claimPermissions(null) }, randomBytes(32).toString('hex'), SESSION_TOKEN_LIFETIME_SECONDS, now.getTime());
}
