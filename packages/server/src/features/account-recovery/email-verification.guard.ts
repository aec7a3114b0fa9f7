import type { FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { ForbiddenError } from '../../infra/errors.js';
import { isUserVerified } from './account-recovery.repository.js';

// The caller's own account record stays reachable, so an unverified user can still read it
// and ask for another verification mail (the SDK's requestVerificationEmail PATCHes it).
const OWN_ACCOUNT = /^\/v7\/user(\([^)/]*\))?(\?|$)/;
const VERIFIED_TTL_MS = 5_000;

/**
 * FLOTILLA_REQUIRE_EMAIL_VERIFICATION (spec 1 §2 guards, §4 must-verify): a user whose
 * address is not verified gets 403 on the data API (/v7), whatever the credential (session
 * token or API key). A platform administrator acting as the user (login-as) is let through.
 * Only "verified" is cached (briefly): a fresh verification takes effect at once.
 */
export function emailVerificationGuard(db: Db): (request: FastifyRequest) => Promise<void> {
  const verified = new Map<number, number>();
  return async (request) => {
    const actor = request.actor;
    if (!actor || actor.kind !== 'user' || actor.userId === undefined) return;
    const url = request.url;
    if (!url.startsWith('/v7/') || OWN_ACCOUNT.test(url)) return;
    if (actor.claims && actor.claims.actualUser !== undefined && actor.claims.actualUser !== actor.claims.id) return;
    const at = verified.get(actor.userId);
    if (at !== undefined && Date.now() - at < VERIFIED_TTL_MS) return;
    if (await isUserVerified(db, actor.userId)) {
      if (verified.size > 10_000) verified.clear();
      verified.set(actor.userId, Date.now());
      return;
    }
    throw new ForbiddenError(ACCOUNT_MESSAGES.verificationRequired);
  };
}
