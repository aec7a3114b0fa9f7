import type { SessionClaims } from '../auth/jwt.js';

/** Who is calling: set by the authentication hook on every request (null = anonymous). */
export interface Actor {
  actorId: number;
  kind: 'user' | 'application' | 'device';
  /** Permission strings (see @flotilla/model roles); the same array for the same role set. */
  permissions: readonly string[];
  userId?: number;
  /** kind 'device': the device the device API key belongs to. */
  deviceId?: number;
  /** kind 'application': the fleet the provisioning key belongs to. */
  applicationId?: number;
  /** Present when the caller used a session token (JWT). */
  claims?: SessionClaims;
  /** Present when the caller used an API key. */
  apiKeyId?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}
