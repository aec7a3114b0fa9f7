import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ProfileInput } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { requireUser } from '../../infra/http/guards.js';
import { CAPTCHA_RESPONSE, EMAIL, objectOf, OPTIONAL_PASSWORD } from '../../infra/http/schemas.js';
import { issueSessionToken } from '../../infra/auth/session.service.js';
import { revokeOtherSessions } from '../../infra/auth/session-revocation.js';
import { checkCaptcha } from './captcha.js';
import { verifyEmail } from './email-verification.service.js';
import type { AccountOptions } from './options.js';
import { requestPasswordReset, resetPassword } from './password-reset.service.js';
import { accountState, saveProfile } from './profile.service.js';
import { RateLimitedError } from '../../infra/auth/rate-limit.js';

export interface AccountRecoveryRoutesOptions {
  db: Db;
  jwtSecret: string;
  account?: AccountOptions | undefined;
}

/** 429 answers carry `{message, nextValidTime}` (spec 1 §8: the next valid time). */
async function rateLimited<T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RateLimitedError) return reply.code(429).headers(err.headers).type('application/json').send(err.body());
    throw err;
  }
}

const text = { type: 'string', maxLength: 1024 } as const;

/**
 * E-mail verification, password reset and the profile step (issue 6 items 2–3; spec 1 §2,
 * §4, §5, §8). Sign-up itself is `POST /user/register` in features/auth.
 */
export async function accountRecoveryRoutes(app: FastifyInstance, opts: AccountRecoveryRoutesOptions): Promise<void> {
  const { db, jwtSecret } = opts;
  // Token expiry and rate limits read the app's clock (tests move it).
  const now = (): Date => new Date(app.context.clock());
  const mustVerify = opts.account?.requireEmailVerification ?? false;

  // Dialect §1.3 (balena-sdk auth.verifyEmail, sent without a token): answers a session token.
  app.post<{ Body: { verificationToken?: string; email?: string } }>(
    '/user/v1/verify-email',
    { schema: { body: { type: 'object', properties: { verificationToken: text, email: text } } }, config: { noStore: true } },
    async (request, reply) => {
      const userId = await verifyEmail(db, request.body.verificationToken, request.body.email, now());
      app.authenticator.forgetUser(userId);
      reply.type('text/plain');
      return issueSessionToken(db, jwtSecret, userId);
    },
  );

  // What the dashboard's guards and the pending page need: verification state and whether
  // the profile step is done (spec 1 §4).
  app.get('/user/v1/account-state', async (request) => accountState(db, requireUser(request).userId, mustVerify));

  // The profile step (spec §7 "PATCH /user/profile").
  app.patch<{ Body: ProfileInput }>(
    '/user/profile',
    {
      schema: {
        body: {
          type: 'object',
          properties: { first_name: text, last_name: text, company: text, account_type: { type: ['string', 'null'], maxLength: 32 } },
        },
      },
    },
    async (request) => saveProfile(db, requireUser(request).userId, request.body),
  );

  // Spec §7 "POST reset-password/{email} with captcha response": answers the same whether or
  // not the address has an account.
  app.post<{ Params: { email: string }; Body: { 'g-recaptcha-response'?: string } | undefined }>(
    '/user/v1/reset-password/:email',
    {
      schema: {
        params: objectOf({ email: EMAIL }, ['email']),
        body: { type: ['object', 'null'], properties: { 'g-recaptcha-response': CAPTCHA_RESPONSE } },
      },
    },
    async (request, reply) =>
      rateLimited(reply, async () => {
        await checkCaptcha(opts.account?.captcha, request.body?.['g-recaptcha-response'], request.ip);
        await requestPasswordReset(db, app.mailer, request.params.email, request.ip, now());
        return reply.type('text/plain').send('OK');
      }),
  );

  // Spec §7 "reset with resetCode and password".
  app.post<{ Body: { resetCode?: string; password?: string } }>(
    '/user/v1/reset-password',
    { schema: { body: { type: 'object', properties: { resetCode: text, password: OPTIONAL_PASSWORD } } } },
    async (request, reply) => {
      const userId = await resetPassword(db, request.body.resetCode, request.body.password, now());
      // Every session of the account ends (whoever knew the old password is signed out).
      await revokeOtherSessions(db, userId, { authenticator: app.authenticator });
      return reply.type('text/plain').send('OK');
    },
  );
}
