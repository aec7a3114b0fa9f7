import type { Db } from '../db/db.js';
import type { Authenticator } from './authenticate.js';
import { setTokensValidAfter } from './auth.repository.js';
import { issueSessionToken } from './session.service.js';

export interface RevokeOptions {
  /** Forgets the user's cached row in this process at once (app.authenticator). */
  authenticator?: Pick<Authenticator, 'forgetSessions'>;
  /** Keep the caller signed in: a fresh token for this session is returned. */
  keep?: { jwtSecret: string; authTime: number; actualUser?: number; twoFactorRequired?: boolean };
  now?: number;
}

/**
 * "Log out from other sessions" (spec 1 §2, §4): every session token of the user issued
 * until now stops working. The user row's `tokens_valid_after` is moved to just after `now`
 * and the authenticator rejects tokens whose `iat` is earlier; tokens issued afterwards
 * (issueSessionToken never dates one before that instant) keep working. API keys are not
 * sessions and stay valid. Other server processes see the change within their user-cache
 * lifetime (5 s).
 *
 * With `keep`, returns the fresh token that keeps the calling session signed in (same
 * authTime, actualUser and two-factor state); the caller's old token is revoked with the others. Password
 * reset calls this without `keep`.
 */
export async function revokeOtherSessions(db: Db, userId: number, opts: RevokeOptions = {}): Promise<string | undefined> {
  const now = opts.now ?? Date.now();
  // +1 ms: a token's iat has whole seconds, so every token issued up to `now` falls before it.
  await setTokensValidAfter(db, userId, new Date(now + 1));
  const { authenticator } = opts;
  // Once committed (at once outside a transaction), this process stops trusting its cached row.
  if (authenticator) db.afterCommit(() => authenticator.forgetSessions(userId));
  if (!opts.keep) return undefined;
  const { jwtSecret, authTime, actualUser, twoFactorRequired } = opts.keep;
  return issueSessionToken(db, jwtSecret, userId, authTime, actualUser ?? userId, twoFactorRequired);
}
