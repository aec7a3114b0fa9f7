import { EMPTY_BODY, objectOf, OPTIONAL_PASSWORD, SHORT_CODE } from '../../infra/http/schemas.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SecretBox } from '../../infra/crypto/secret-box.js';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, UnauthorizedError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import type { SessionClaims } from '../../infra/auth/jwt.js';
import type { Actor } from '../../infra/http/actor.js';
import { requireRecentAuth } from '../../infra/auth/recent-auth.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import {
  completeTwoFactorSetup,
  disableTwoFactor,
  MESSAGES,
  passTwoFactorWithRecoveryCode,
  passTwoFactorWithTotp,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
} from './two-factor.service.js';

export interface TwoFactorRoutesOptions {
  db: Db;
  jwtSecret: string;
  /** Seals and opens stored TOTP secrets. */
  secrets: SecretBox;
}

// Fields are optional in the schemas so a missing one gets the spec's message, not a schema error.
const codeBody = objectOf({ code: SHORT_CODE });
const passwordBody = objectOf({ password: OPTIONAL_PASSWORD });

function requireSession(request: FastifyRequest): Actor & { userId: number; claims: SessionClaims } {
  const actor = requireUser(request);
  if (!actor.claims) throw new UnauthorizedError('You must provide a token to start a session');
  return actor as Actor & { userId: number; claims: SessionClaims };
}

function required(value: string | undefined, message: string): string {
  const v = value?.trim();
  if (!v) throw new BadRequestError(message);
  return v;
}

/**
 * Two-factor authentication (spec 1 §2, §4; dialect §1.3): /auth/totp/setup|verify|disable
 * and the recovery codes at /auth/v1/2fa-recover/create|verify (spec 1 §7). Every answer
 * that changes the session's two-factor state is a new session token (text).
 */
export async function twoFactorRoutes(app: FastifyInstance, { db, jwtSecret, secrets }: TwoFactorRoutesOptions): Promise<void> {
  // The TOTP clock is the app's (tests move it to check drift).
  const clock = app.context.clock;
  // A session token whose second factor is passed (or whose user turned two-factor on in
  // this session); authTime is now, as after any successful check.
  const passedToken = (actor: Actor & { userId: number; claims: SessionClaims }) =>
    issueSessionToken(db, jwtSecret, actor.userId, Date.now(), actor.claims.actualUser ?? actor.userId, false);

  // Text: the otpauth:// key URI (QR code content), which carries the base32 secret (the
  // pairing code); balena-sdk's getSetupKey returns it as a string.
  app.get('/auth/totp/setup', async (request, reply) => {
    const actor = requireRecentAuth(request);
    const { uri } = await startTwoFactorSetup(db, secrets, actor.userId);
    reply.type('text/plain').header('Cache-Control', 'no-store');
    return uri;
  });

  // During setup: enables two-factor. At login (a pending token): passes the second factor.
  app.post<{ Body: { code?: string } }>(
    '/auth/totp/verify',
    { schema: { body: codeBody }, config: { allowsPendingTwoFactor: true, noStore: true } },
    async (request, reply) => {
      const actor = requireSession(request);
      const code = required(request.body?.code, MESSAGES.codeRequired);
      if (actor.claims.twoFactorRequired === true) {
        await passTwoFactorWithTotp(db, secrets, actor.userId, code, clock());
      } else {
        // Only a recent authentication could start the setup (and see its secret).
        await completeTwoFactorSetup(db, secrets, actor.userId, code, clock());
      }
      reply.type('text/plain');
      return passedToken(actor);
    },
  );

  // Needs the password itself (which is the re-verification), so no recent authTime too.
  app.post<{ Body: { password?: string } }>('/auth/totp/disable', { schema: { body: passwordBody } }, async (request, reply) => {
    const actor = requireSession(request);
    if (!request.body?.password) throw new BadRequestError(MESSAGES.passwordRequired);
    await disableTwoFactor(db, actor.userId, request.body.password);
    reply.type('text/plain');
    return issueSessionToken(db, jwtSecret, actor.userId, Date.now(), actor.claims.actualUser ?? actor.userId);
  });

  // A new list of recovery codes (JSON array, shown once); earlier codes stop working.
  app.post('/auth/v1/2fa-recover/create', { schema: { body: EMPTY_BODY }, config: { noStore: true } }, async (request, reply) => {
    const actor = requireRecentAuth(request);
    const codes = await regenerateRecoveryCodes(db, actor.userId);
    reply.header('Cache-Control', 'no-store');
    return codes;
  });

  // At login, instead of a TOTP code: an unused recovery code passes the second factor.
  app.post<{ Body: { code?: string } }>(
    '/auth/v1/2fa-recover/verify',
    { schema: { body: codeBody }, config: { allowsPendingTwoFactor: true, noStore: true } },
    async (request, reply) => {
      const actor = requireSession(request);
      const code = required(request.body?.code, MESSAGES.recoveryCodeRequired);
      if (actor.claims.twoFactorRequired !== true) throw new BadRequestError(MESSAGES.notPending);
      await passTwoFactorWithRecoveryCode(db, actor.userId, code, clock());
      reply.type('text/plain');
      return passedToken(actor);
    },
  );
}
