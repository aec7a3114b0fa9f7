import type { FastifyRequest } from 'fastify';
import { SESSION_VALIDITY_FROM_AUTH_TIME_MS } from '@flotilla/model';
import { UnauthorizedError } from '../errors.js';
import { requireUser } from '../http/guards.js';
import type { Actor } from '../http/actor.js';

/**
 * The spec's login-required error (1 §8 'You have to log in'); §4: "a login-required error
 * reopens identity verification", so the dashboard answers it with the password dialog.
 */
export const RECENT_AUTH_REQUIRED_MESSAGE = 'You have to log in';

/**
 * Rule (spec 1 §4, §9): sensitive actions (change password or email, two-factor changes,
 * API key creation, account deletion) need a session whose `authTime` (the last password
 * or two-factor check) is at most 20 minutes old; else 401 and nothing happens. The caller
 * gets a fresh authTime from POST /auth/v1/reverify. An API key carries no authTime, so it
 * never qualifies: only a person who just typed their password does.
 */
export function requireRecentAuth(request: FastifyRequest, now: number = Date.now()): Actor & { userId: number } {
  const actor = requireUser(request);
  const claims = actor.claims;
  const authTime = claims?.authTime;
  // A session still waiting for its two-factor code is not fully logged in (spec 1 §4).
  if (typeof authTime !== 'number' || claims?.twoFactorRequired === true || now - authTime > SESSION_VALIDITY_FROM_AUTH_TIME_MS) {
    throw new UnauthorizedError(RECENT_AUTH_REQUIRED_MESSAGE);
  }
  return actor;
}
