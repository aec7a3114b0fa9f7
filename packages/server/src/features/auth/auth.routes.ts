import type { FastifyInstance } from 'fastify';
import { billingEnabled, ensureSubscription } from '../billing/index.js';
import { PASSWORD_MAX_LENGTH } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { ConflictError, UnauthorizedError } from '../../infra/errors.js';
import { verifyPassword } from '../../infra/auth/password.js';
import { requireUser } from '../../infra/http/guards.js';
import { CAPTCHA_RESPONSE, EMAIL, objectOf, PASSWORD, USERNAME } from '../../infra/http/schemas.js';
import { createUser, EMAIL_TAKEN } from '../users/index.js';
import { answerSignUpForExistingEmail } from './sign-up-existing.js';
import { findApplicationSlug, findDeviceUuid, findLoginUser, findWhoamiUser } from './auth.repository.js';
import { beginLoginAttempt, loginAccountKey, loginSucceeded } from '../../infra/auth/login-throttle.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { checkCaptcha, sendVerificationEmail } from '../account-recovery/index.js';
import type { AccountConfig } from '../../infra/app/context.js';

export interface AuthRoutesOptions {
  db: Db;
  jwtSecret: string;
  /** Sign-up captcha (features/account-recovery); verification tokens are dated by the app's clock. */
  account?: AccountConfig | undefined;
}

const credentialsSchema = objectOf({ username: USERNAME, password: PASSWORD }, ['username', 'password']);

const registerSchema = objectOf(
  {
    email: { ...EMAIL, minLength: 3 },
    password: PASSWORD,
    has_disabled_newsletter: { type: 'boolean' },
    'g-recaptcha-response': CAPTCHA_RESPONSE,
  },
  ['email', 'password'],
);

const whoamiResponse = {
  200: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      actorType: { type: 'string' },
      actorTypeId: { type: 'integer' },
      username: { type: 'string' },
      email: { type: 'string' },
      uuid: { type: 'string' },
      slug: { type: 'string' },
    },
  },
} as const;

export async function authRoutes(app: FastifyInstance, { db, jwtSecret, account }: AuthRoutesOptions): Promise<void> {
  // Login by email or username; the body answer is the JWT as text (balena dialect §1.3).
  app.post<{ Body: { username: string; password: string } }>(
    '/login_',
    // A user with two-factor on gets a pending token (session.service); the second factor
    // is then given at /auth/totp/verify or /auth/v1/2fa-recover/verify.
    { schema: { body: credentialsSchema }, config: { allowsPendingTwoFactor: true, noStore: true } },
    async (request, reply) => {
      const { username, password } = request.body;
      const user = await findLoginUser(db, username);
      // Counted (per account and address) before the password is checked: see login-throttle.ts.
      const account = loginAccountKey(user?.id, username);
      await beginLoginAttempt(db, account, request.ip, username);
      const ok = password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(user?.password, password));
      if (!user || !ok) throw new UnauthorizedError('Invalid login credentials');
      await loginSucceeded(db, account, request.ip);
      reply.type('text/plain');
      return issueSessionToken(db, jwtSecret, user.id);
    },
  );

  app.post<{ Body: { email: string; password: string; has_disabled_newsletter?: boolean; 'g-recaptcha-response'?: string } }>(
    '/user/register',
    { schema: { body: registerSchema }, config: { noStore: true } },
    async (request, reply) => {
      // Spec 1 §5: the captcha first (a dummy passes when none is configured); then the
      // account and its verification mail in one transaction.
      await checkCaptcha(account?.captcha, request.body['g-recaptcha-response'], request.ip);
      const now = new Date(app.context.clock());
      let user;
      try {
        user = await db.tx(async (tx) => {
          const created = await createUser(tx, {
            email: request.body.email,
            password: request.body.password,
            hasDisabledNewsletter: request.body.has_disabled_newsletter ?? false,
          });
          // Billing on: the personal organization starts on the free plan (issue 18).
          if (billingEnabled(app)) await ensureSubscription(tx, created.organizationId, now);
          await sendVerificationEmail(tx, app.mailer, created, now);
          return created;
        });
      } catch (err) {
        // The address has an account: answered like a sign-up, the owner is told by mail.
        if (!(err instanceof ConflictError && err.message === EMAIL_TAKEN)) throw err;
        reply.code(201).type('text/plain');
        return answerSignUpForExistingEmail(db, app.mailer, request.body.email.trim(), now);
      }
      reply.code(201).type('text/plain');
      return issueSessionToken(db, jwtSecret, user.id);
    },
  );

  // Dialect §1.3: a device key answers as its device, a provisioning key as its fleet.
  app.get('/actor/v1/whoami', { schema: { response: whoamiResponse }, config: { allowsPendingTwoFactor: true } }, async (request) => {
    const caller = request.actor;
    if (caller?.kind === 'device' && caller.deviceId !== undefined) {
      const uuid = await findDeviceUuid(db, caller.deviceId);
      if (uuid === undefined) throw new UnauthorizedError();
      return { id: caller.actorId, actorType: 'device', actorTypeId: caller.deviceId, uuid };
    }
    if (caller?.kind === 'application' && caller.applicationId !== undefined) {
      const slug = await findApplicationSlug(db, caller.applicationId);
      if (slug === undefined) throw new UnauthorizedError();
      return { id: caller.actorId, actorType: 'application', actorTypeId: caller.applicationId, slug };
    }
    const actor = requireUser(request);
    const user = await findWhoamiUser(db, actor.userId);
    if (!user) throw new UnauthorizedError();
    return { id: actor.actorId, actorType: 'user', actorTypeId: user.id, username: user.username, email: user.email };
  });

  app.get('/user/v1/whoami', { schema: { response: whoamiResponse }, config: { allowsPendingTwoFactor: true } }, async (request) => {
    const actor = requireUser(request);
    const user = await findWhoamiUser(db, actor.userId);
    if (!user) throw new UnauthorizedError();
    return user;
  });

  // A fresh 36 h token for a session token; authTime is carried over so the
  // re-verification window for sensitive actions does not restart, and actualUser so a
  // login-as session stays marked as the administrator's.
  // A pending two-factor state stays pending, a passed one passed.
  app.get('/user/v1/refresh-token', { config: { allowsPendingTwoFactor: true, noStore: true } }, async (request, reply) => {
    const actor = requireUser(request);
    if (!actor.claims) throw new UnauthorizedError('A session token is required to refresh');
    reply.type('text/plain');
    return issueSessionToken(
      db,
      jwtSecret,
      actor.userId,
      actor.claims.authTime,
      actor.claims.actualUser ?? actor.userId,
      actor.claims.twoFactorRequired,
    );
  });
}
