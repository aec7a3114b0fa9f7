import type { Mailer } from '../../infra/mail/index.js';

/**
 * Data API hooks get `{db, actor, body, ids}` only, so the invitation rules find the app's
 * mailer here; buildApp sets it. One app per process in production; in tests the most
 * recently built app's mailer is used (each test file runs in its own module scope).
 */
let current: Mailer | undefined;

export function setInvitationMailer(mailer: Mailer): void {
  current = mailer;
}

export function invitationMailer(): Mailer | undefined {
  return current;
}
