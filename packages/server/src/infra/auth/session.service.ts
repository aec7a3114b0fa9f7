import { SESSION_TOKEN_LIFETIME_SECONDS } from '@flotilla/model';
import type { Db } from '../db/db.js';
import { signJwt } from './jwt.js';
import { claimPermissions } from './authenticate.js';
import { findTokenUser } from './auth.repository.js';
import { NotFoundError } from '../errors.js';

/**
 * Issues a 36-hour session token for a user. `authTime` is kept across refreshes;
 * `actualUser` is the platform administrator when one logs in as this user (admin login-as).
 * `twoFactorRequired` (spec 1 §4) counts only for a user with two-factor enabled: `false`
 * when this session has passed the second factor, `true` or omitted while it is pending
 * (omitting it can never skip the second factor). Without two-factor the claim is absent.
 */
export async function issueSessionToken(
  db: Db,
  secret: string,
  userId: number,
  authTime: number = Date.now(),
  actualUser: number = userId,
  twoFactorRequired?: boolean,
): Promise<string> {
  const user = await findTokenUser(db, userId);
  if (!user) throw new NotFoundError('User not found');
  const twoFactor = user.two_factor ? { twoFactorRequired: twoFactorRequired !== false } : {};
  return signJwt(
    { id: userId, authTime, actualUser, ...twoFactor, permissions: claimPermissions(user.platform_role) },
    secret,
    SESSION_TOKEN_LIFETIME_SECONDS,
    issuedAt(user.tokens_valid_after),
  );
}

/**
 * After "log out from other sessions" (session-revocation.ts) tokens dated before
 * tokens_valid_after are rejected; `iat` has whole seconds, so a token issued in that same
 * second is dated at the next one (at most 1 s ahead) to stay valid.
 */
function issuedAt(validAfter: Date | null, now = Date.now()): number {
  const after = validAfter?.getTime() ?? 0;
  // The authenticator compares the whole-second iat, not `now`.
  return Math.floor(now / 1000) * 1000 >= after ? now : Math.ceil(after / 1000) * 1000;
}
