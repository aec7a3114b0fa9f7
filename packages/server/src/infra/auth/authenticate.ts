import type { FastifyRequest } from 'fastify';
import { ROLES } from '@flotilla/model';
import type { Db } from '../db/db.js';
import { UnauthorizedError } from '../errors.js';
import type { Actor } from '../http/actor.js';
import { ApiKeyCache } from './api-key-cache.js';
import { findApiKeyActor, findSessionUser, type SessionUserRow } from './auth.repository.js';
import { hashApiKey } from './api-keys.js';
import { JwtVerifier, looksLikeJwt } from './jwt.js';

const USER_PERMISSIONS = ROLES['default-user'];
const SUPPORT_PERMISSIONS = [...ROLES['default-user'], ...ROLES.support_agent];
// A platform administrator is also an ordinary user in their own organizations.
const ADMIN_PERMISSIONS = [...ROLES['default-user'], ...ROLES['platform-administrator']];
const DEVICE_PERMISSIONS = ROLES.device;
const PROVISIONING_PERMISSIONS = ROLES['provisioning-api-key'];

/** The permission set of a user from their platform role (stable arrays, so caches can key on them). */
export function userPermissions(platformRole: string | null): readonly string[] {
  if (platformRole === 'administrator') return ADMIN_PERMISSIONS;
  if (platformRole === 'support_agent') return SUPPORT_PERMISSIONS;
  return USER_PERMISSIONS;
}

/** Global permissions carried in the token's `permissions` claim (e.g. admin.home). */
export function claimPermissions(platformRole: string | null): string[] {
  return userPermissions(platformRole).filter((p) => !p.startsWith('resin.'));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers a session token whose two-factor check is still pending. */
    allowsPendingTwoFactor?: boolean;
    /**
     * A refused credential does not fail the request at once: the route reads it from
     * `request.authError` (a deleted device's target-state poll answers 304, dialect §4.2).
     */
    handlesAuthError?: boolean;
  }
  interface FastifyRequest {
    /** Why the credential was refused, on routes with `config: { handlesAuthError: true }`. */
    authError?: UnauthorizedError;
  }
}

/**
 * Spec 1 §4: a user whose two-factor check is pending is not fully logged in. Such a token
 * reaches only the routes that declare `config: { allowsPendingTwoFactor: true }` (the
 * second-factor endpoints, whoami, refresh); everything else answers as to a stranger.
 */
function assertTwoFactorComplete(actor: Actor, request: FastifyRequest): Actor {
  if (actor.claims?.twoFactorRequired === true && request.routeOptions.config?.allowsPendingTwoFactor !== true) {
    throw new UnauthorizedError('You have to log in');
  }
  return actor;
}

type UserRow = SessionUserRow;

/**
 * Resolves the caller from `?apikey=` (read first, as open-balena-api does) or
 * `Authorization: Bearer <JWT | API key>`. No credential → anonymous (null); a bad
 * credential → 401, never silently anonymous.
 */
export class Authenticator {
  // Short-lived cache of user rows so a session token costs no query on most requests.
  // Changes that must take effect at once (logout-others, role changes) call forgetUser.
  private users = new Map<number, { row: UserRow | undefined; at: number }>();
  private static readonly USER_TTL_MS = 5_000;
  /** API key (hash) → actor; see ApiKeyCache for what drops entries. */
  readonly apiKeys = new ApiKeyCache();
  /** Session tokens whose signature was checked (the times are checked at every request). */
  private readonly jwt: JwtVerifier;

  constructor(
    private readonly db: Db,
    jwtSecret: string,
  ) {
    this.jwt = new JwtVerifier(jwtSecret);
  }

  forgetUser(userId: number): void {
    this.users.delete(userId);
    // Their API keys carry the same permissions; such changes are rare, so drop every key.
    this.apiKeys.drop({});
  }

  /** Drops only the cached user row (sessions changed: "log out from other sessions"); API keys are untouched. */
  forgetSessions(userId: number): void {
    this.users.delete(userId);
  }

  private async loadUser(id: number): Promise<UserRow | undefined> {
    const hit = this.users.get(id);
    if (hit && Date.now() - hit.at < Authenticator.USER_TTL_MS) return hit.row;
    const row = await findSessionUser(this.db, id);
    if (this.users.size > 10_000) this.users.clear();
    this.users.set(id, { row, at: Date.now() });
    return row;
  }

  /**
   * The caller, synchronously when nothing has to be read (no credential, or an API key in
   * the cache: a device's poll costs no promise), else a promise.
   */
  authenticate(request: FastifyRequest): Actor | null | Promise<Actor | null> {
    const query = request.query as Record<string, unknown> | undefined;
    const apiKey = typeof query?.apikey === 'string' ? query.apikey : undefined;
    const header = request.headers.authorization;
    let bearer: string | undefined;
    if (header !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m) throw new UnauthorizedError('Malformed Authorization header');
      bearer = m[1];
    }
    if (apiKey !== undefined) return this.fromApiKey(apiKey);
    if (bearer === undefined) return null;
    return looksLikeJwt(bearer) ? this.fromJwt(bearer).then((actor) => assertTwoFactorComplete(actor, request)) : this.fromApiKey(bearer);
  }

  async fromJwt(token: string): Promise<Actor> {
    const claims = await this.jwt.verify(token);
    const user = await this.loadUser(claims.id);
    if (!user) throw new UnauthorizedError('Your session has expired');
    if (user.tokens_valid_after && claims.iat * 1000 < user.tokens_valid_after.getTime()) {
      throw new UnauthorizedError('Your session has expired');
    }
    return { actorId: user.actor, kind: 'user', userId: user.id, permissions: userPermissions(user.platform_role), claims };
  }

  /**
   * An API key authenticates as its actor: a user (named key), a device (device key:
   * `kind 'device'` with `deviceId`) or a fleet (provisioning key: `kind 'application'`
   * with `applicationId`).
   */
  fromApiKey(key: string): Actor | Promise<Actor> {
    const hash = hashApiKey(key);
    return this.apiKeys.get(hash) ?? this.loadApiKey(hash);
  }

  private async loadApiKey(hash: string): Promise<Actor> {
    const generation = this.apiKeys.generation;
    const row = await findApiKeyActor(this.db, hash);
    if (!row) throw new UnauthorizedError('Unauthorized: unknown API key');
    if (row.expired) throw new UnauthorizedError('Unauthorized: the API key has expired');
    let actor: Actor;
    if (row.user_id !== null) {
      actor = { actorId: row.actor, kind: 'user', userId: row.user_id, permissions: userPermissions(row.platform_role), apiKeyId: row.id };
    } else if (row.device_id !== null) {
      actor = { actorId: row.actor, kind: 'device', deviceId: row.device_id, permissions: DEVICE_PERMISSIONS, apiKeyId: row.id };
    } else if (row.application_id !== null) {
      actor = { actorId: row.actor, kind: 'application', applicationId: row.application_id, permissions: PROVISIONING_PERMISSIONS, apiKeyId: row.id };
    } else {
      throw new UnauthorizedError('Unauthorized: unknown API key');
    }
    // Shared by every request with this key until dropped: nobody may change it.
    Object.freeze(actor);
    this.apiKeys.set(hash, actor, row.expiry_date, generation);
    return actor;
  }
}
