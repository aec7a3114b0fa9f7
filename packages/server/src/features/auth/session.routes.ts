import { EMPTY_BODY, PASSWORD_BODY } from '../../infra/http/schemas.js';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { UnauthorizedError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { checkOwnPassword } from '../../infra/auth/password-check.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { revokeOtherSessions } from '../../infra/auth/session-revocation.js';

export interface SessionRoutesOptions {
  db: Db;
  jwtSecret: string;
}

/** Identity re-verification and "log out from other sessions" (spec 1 §2, §4). */
export async function sessionRoutes(app: FastifyInstance, { db, jwtSecret }: SessionRoutesOptions): Promise<void> {
  // A re-verification is dated by the app's clock (tests move it).
  const now = app.context.clock;
  // A password re-check: a fresh session token (text) whose authTime is now, so sensitive
  // actions (recent-auth.ts) are allowed for the next 20 minutes. Rate-limited with logins.
  app.post<{ Body: { password: string } }>('/auth/v1/reverify', { schema: { body: PASSWORD_BODY }, config: { noStore: true } }, async (request, reply) => {
    const actor = requireUser(request);
    const claims = actor.claims;
    if (!claims) throw new UnauthorizedError('You must provide a token to start a session');
    await checkOwnPassword(db, actor.userId, request.body.password, request.ip);
    reply.type('text/plain');
    return issueSessionToken(db, jwtSecret, actor.userId, now(), claims.actualUser ?? actor.userId, claims.twoFactorRequired);
  });

  // Every other session token of the user stops working; the answer is a fresh token for
  // this session (text), which the dashboard stores. API keys are not sessions: unchanged.
  app.post('/user/v1/logout-others', { schema: { body: EMPTY_BODY }, config: { noStore: true } }, async (request, reply) => {
    const actor = requireUser(request);
    const claims = actor.claims;
    if (!claims) throw new UnauthorizedError('You must provide a token to start a session');
    const token = await revokeOtherSessions(db, actor.userId, {
      authenticator: app.authenticator,
      keep: { jwtSecret, authTime: claims.authTime, actualUser: claims.actualUser, twoFactorRequired: claims.twoFactorRequired },
    });
    reply.type('text/plain');
    return token;
  });
}
