import type { Rules } from '../../infra/app/context.js';
import { resendVerificationEmail } from './email-verification.service.js';
import { ownUserAmong } from './account-recovery.repository.js';

/**
 * The SDK's `auth.requestVerificationEmail()` is `PATCH /v7/user(id)
 * {has_been_sent_verification_email: true}` (dialect §1.3): when users set it on their own
 * record, another verification mail goes out through the app's mailer (rate-limited by the
 * app's clock; nothing for a verified user).
 */
export function registerVerificationResendRules(rules: Rules): void {
  rules.register('user', 'PATCH', {
    async before({ tx, app, actor, body, ids }) {
      if (body.has_been_sent_verification_email !== true || actor.actorId === null) return;
      const own = await ownUserAmong(tx, actor.actorId, ids);
      if (own !== undefined) await resendVerificationEmail(tx, app.mailer, own, new Date(app.clock()));
    },
  });
}
