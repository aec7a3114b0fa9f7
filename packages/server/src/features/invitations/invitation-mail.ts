import type { Db } from '../../infra/db/db.js';
import { fleetInvitation, organizationInvitation, type Mailer } from '../../infra/mail/index.js';
import type { InvitationKind } from './invitation-kinds.js';
import { invitationTokenOf } from './invitation-token.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule: a created invite is mailed to the invitee with the accept link (spec 1 §2 routes
 * /organization/invitation/{token} and /invitation/{token}). Rendered after the insert and
 * queued in the same transaction; delivery (with retries) follows the commit, and a rendering
 * failure is logged, so mail trouble never fails the invite.
 */
export async function sendInvitationMail(db: Db, mailer: Mailer, kind: InvitationKind, inviteId: number, body: HookBody<InvitationKind['resource'], 'POST'>): Promise<void> {
  const token = invitationTokenOf(body);
  if (token === undefined) return;
  const { rows } = await db.query<{ invitee: string; message: string | null; target: string; role: string; inviter: string }>(
    kind.kind === 'organization'
      ? `SELECT e.email AS invitee, i.message, o.name AS target, r.name AS role,
                coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.username) AS inviter
           FROM invitee__is_invited_to__organization i
           JOIN invitee e ON e.id = i.invitee
           JOIN organization o ON o.id = i.is_invited_to__organization
           JOIN organization_membership_role r ON r.id = i.organization_membership_role
           JOIN "user" u ON u.id = i.is_created_by__user
          WHERE i.id = $1`
      : `SELECT e.email AS invitee, i.message, a.app_name AS target, r.name AS role,
                coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.username) AS inviter
           FROM invitee__is_invited_to__application i
           JOIN invitee e ON e.id = i.invitee
           JOIN application a ON a.id = i.is_invited_to__application
           JOIN application_membership_role r ON r.id = i.application_membership_role
           JOIN "user" u ON u.id = i.is_created_by__user
          WHERE i.id = $1`,
    [inviteId],
  );
  const row = rows[0];
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
