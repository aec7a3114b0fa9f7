import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors.js';
import type { Actor } from './actor.js';

/** The caller must be a signed-in user (session token or the user's API key). */
export function requireUser(request: FastifyRequest): Actor & { userId: number } {
  const actor = request.actor;
  if (!actor || actor.kind !== 'user' || actor.userId === undefined) throw new UnauthorizedError('You have to log in');
  return actor as Actor & { userId: number };
}
