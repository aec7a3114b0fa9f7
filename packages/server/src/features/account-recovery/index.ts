import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { accountRecoveryRoutes } from './account-recovery.routes.js';
import { emailVerificationGuard } from './email-verification.guard.js';
import { registerVerificationResendRules } from './verification-resend.hooks.js';

// Shared with sign-up (features/auth) and the e-mail change (features/account).
export { checkCaptcha } from './captcha.js';
export { sendVerificationEmail } from './email-verification.service.js';

/**
 * E-mail verification, password reset and the profile step. With
 * FLOTILLA_REQUIRE_EMAIL_VERIFICATION unverified users get no data API (spec 1 §4
 * must-verify): a guard on the root, so this feature is set up before any other registers
 * routes (Fastify gives a plugin the root's hooks as they are when it is registered).
 */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  const { db, config } = app.context;
  if (config.accounts?.requireEmailVerification) app.addHook('preHandler', emailVerificationGuard(db));
  registerVerificationResendRules(rules);
  await app.register(accountRecoveryRoutes, { db, jwtSecret: config.jwtSecret, account: config.accounts });
}
