import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { requireUser } from '../../infra/http/guards.js';
import { EMAIL, objectOf, OPTIONAL_PASSWORD, PASSWORD, PASSWORD_BODY } from '../../infra/http/schemas.js';
import { requireRecentAuth } from '../../infra/auth/recent-auth.js';
import { checkOwnPassword } from '../../infra/auth/password-check.js';
import { revokeOtherSessions } from '../../infra/auth/session-revocation.js';
import { accountDeletionPreflight, deleteAccount } from './account-deletion.js';
import { changeEmail } from './email-change.js';
import { changePassword } from './password-change.js';

export interface AccountRoutesOptions {
  db: Db;
  jwtSecret: string;
}

const passwordSchema = objectOf({ currentPassword: OPTIONAL_PASSWORD, password: PASSWORD }, ['password']);
const emailSchema = objectOf({ email: EMAIL, password: PASSWORD }, ['email', 'password']);

/**
 * The account holder's own account (spec 1 §2 preferences, §5, §7): change password
 * (`PATCH /user/password`), change email (`PATCH /user/email`), the account-deletion
 * preflight and the deletion itself. Every change needs a recent authentication (20 min).
 */
export async function accountRoutes(app: FastifyInstance, { db, jwtSecret }: AccountRoutesOptions): Promise<void> {
  // The re-verification window reads the app's clock (tests move it).
  const now = app.context.clock;
  // Answers a fresh token for this session (text): a new password logs out every other session.
  app.patch<{ Body: { currentPassword?: string; password: string } }>(
    '/user/password',
    { schema: { body: passwordSchema } },
    async (request, reply) => {
      const actor = requireRecentAuth(request, now());
      await changePassword(db, actor.userId, request.body);
      const claims = actor.claims!;
      const token = await revokeOtherSessions(db, actor.userId, {
        authenticator: app.authenticator,
        keep: { jwtSecret, authTime: claims.authTime, actualUser: claims.actualUser, twoFactorRequired: claims.twoFactorRequired },
      });
      reply.type('text/plain');
      return token;
    },
  );

  app.patch<{ Body: { email: string; password: string } }>('/user/email', { schema: { body: emailSchema } }, async (request) => {
    const actor = requireRecentAuth(request, now());
    return changeEmail(db, app.mailer, actor.userId, request.body, new Date(now()));
  });

  app.get('/user/v1/account-deletion/preflight', async (request) => {
    const actor = requireUser(request);
    return accountDeletionPreflight(db, actor.userId);
  });

  app.delete<{ Body: { password: string } }>('/user/v1/account', { schema: { body: PASSWORD_BODY } }, async (request, reply) => {
    const actor = requireRecentAuth(request, now());
    await checkOwnPassword(db, actor.userId, request.body.password, request.ip);
    await deleteAccount(app.context, db, { actorId: actor.actorId, permissions: actor.permissions }, actor.userId);
    app.authenticator.forgetSessions(actor.userId);
    return reply.code(200).send();
  });
}
