import { registerHook } from '../../infra/odata/index.js';
import type { Mailer } from '../../infra/mail/index.js';
import { resendVerificationEmail } from './email-verification.service.js';
import { systemClock } from './options.js';

/**
 * The SDK's `auth.requestVerificationEmail()` is `PATCH /v7/user(id)
 * {has_been_sent_verification_email: true}` (dialect §1.3): when users set it on their own
 * record, another verification mail goes out (rate-limited; nothing for a verified user).
 * Data API hooks get no app, so buildApp's mailer and clock are kept here (as the
 * invitation rules keep the mailer).
 */
let current: { mailer: Mailer; clock: () => Date } | undefined;

export function setVerificationMailer(mailer: Mailer, clock: () => Date = systemClock): void {
  current = { mailer, clock };
}

let registered = false;
export function registerVerificationResendRules(): void {
  if (registered) return;
  registered = true;
  registerHook('user', 'PATCH', {
    async before({ db, actor, body, ids }) {
      if (body.has_been_sent_verification_email !== true || !current || actor.actorId === null) return;
      const { rows } = await db.query<{ id: number }>('SELECT id FROM "user" WHERE actor = $1 AND id = ANY($2::int[])', [actor.actorId, ids]);
      const own = rows[0];
      if (own) await resendVerificationEmail(db, current.mailer, own.id, current.clock());
    },
  });
}
