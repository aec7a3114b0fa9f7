import type { Db } from '../../infra/db/db.js';
import { fleetInvitation, organizationInvitation, type Mailer } from '../../infra/mail/index.js';
import type { InvitationKind } from './invitation-kinds.js';
import { invitationTokenOf } from './invitation-token.js';
import type { HookBody } from '../../infra/odata/index.js';
import { invitationMailFacts } from './invitation.repository.js';

/**
 * Rule: a created invite is mailed to the invitee with the accept link (spec 1 §2 routes
 * /organization/invitation/{token} and /invitation/{token}). Rendered after the insert and
 * queued in the same transaction; delivery (with retries) follows the commit, and a rendering
 * failure is logged, so mail trouble never fails the invite.
 */
export async function sendInvitationMail(db: Db, mailer: Mailer, kind: InvitationKind, inviteId: number, body: HookBody<InvitationKind['resource'], 'POST'>): Promise<void> {
  const token = invitationTokenOf(body);
  if (token === undefined) return;
  const row = await invitationMailFacts(db, kind, inviteId);
  if (!row) return;
  try {
    const common = {
      inviterName: row.inviter,
      roleName: row.role,
      message: row.message ?? undefined,
      acceptUrl: mailer.publicLink(kind.acceptPath + token),
    };
    const mail =
      kind.kind === 'organization'
        ? organizationInvitation({ ...common, organizationName: row.target })
        : fleetInvitation({ ...common, applicationName: row.target });
    // Queued in the invite's transaction and delivered after it commits: a write that fails
    // later in the transaction (another hook, a constraint) takes the mail away with it.
    await mailer.queue(db, { to: row.invitee, subject: mail.subject, text: mail.text, html: mail.html });
  } catch (err) {
    // A template refusing a link (a misconfigured public URL): the invite stands without mail.
    console.error('invitation mail not sent', err);
  }
}
