import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../infra/errors.js';
import type { InvitationKind } from './invitation-kinds.js';
import { hashInvitationToken, INVITATION_TOKEN_PATTERN } from './invitation-token.js';

export type AcceptResult = { organization: { id: number; name: string } } | { application: { id: number; app_name: string } };

const UNKNOWN = 'This invitation does not exist or has already been used';
const EXPIRED = 'This invitation has expired; ask for a new one';

/**
 * Accepting an invitation (spec 1 §2, §7; dialect §2.5): the token names an unexpired
 * invite whose invitee is the signed-in user's e-mail (case-insensitively); the user gets
 * the invited role and the invite is deleted, in one transaction. A fleet member must be an
 * organization member, so a fleet invite also adds a 'member' organization membership when
 * there is none. Unknown (404) and expired (400) tokens reveal nothing about the invite; a
 * token for someone else is 403 and changes nothing.
 */
export async function acceptInvitation(db: Db, kind: InvitationKind, userId: number, token: string): Promise<AcceptResult> {
  if (!INVITATION_TOKEN_PATTERN.test(token)) throw new NotFoundError(UNKNOWN);
  return db.tx(async (tx) => {
    const { rows } = await tx.query<{ id: number; target: number; role: number; mine: boolean; expired: boolean }>(
      `SELECT i.id, i.${kind.target} AS target, i.${kind.role} AS role, i.expiry <= now() AS expired,
              EXISTS (SELECT 1 FROM "user" u JOIN invitee e ON e.id = i.invitee WHERE u.id = $2 AND lower(u.email) = lower(e.email)) AS mine
         FROM ${kind.resource} i WHERE i.token_hash = $1
         FOR UPDATE`,
      [hashInvitationToken(token), userId],
    );
    const invite = rows[0];
    if (!invite) throw new NotFoundError(UNKNOWN);
    if (invite.expired) throw new BadRequestError(EXPIRED);
    if (!invite.mine) throw new ForbiddenError('This invitation was sent to another e-mail address; sign in with that address to accept it');

    let result: AcceptResult;
    if (kind.kind === 'organization') {
      await tx.query(
        `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
         VALUES ($1, $2, $3)
         ON CONFLICT ("user", is_member_of__organization) DO NOTHING`,
        [userId, invite.target, invite.role],
      );
      const org = await tx.query<{ id: number; name: string }>('SELECT id, name FROM organization WHERE id = $1', [invite.target]);
      result = { organization: org.rows[0]! };
    } else {
      const app = await tx.query<{ id: number; app_name: string; organization: number }>(
        'SELECT id, app_name, organization FROM application WHERE id = $1',
        [invite.target],
      );
      const fleet = app.rows[0]!;
      await tx.query(
        `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
         SELECT $1, $2, r.id FROM organization_membership_role r WHERE r.name = 'member'
         ON CONFLICT ("user", is_member_of__organization) DO NOTHING`,
        [userId, fleet.organization],
      );
      await tx.query(
        `INSERT INTO user_application_membership ("user", is_member_of__application, application_membership_role)
         VALUES ($1, $2, $3)
         ON CONFLICT ("user", is_member_of__application) DO UPDATE SET application_membership_role = EXCLUDED.application_membership_role`,
        [userId, fleet.id, invite.role],
      );
      result = { application: { id: fleet.id, app_name: fleet.app_name } };
    }
    await tx.query(`DELETE FROM ${kind.resource} WHERE id = $1`, [invite.id]);
    return result;
  });
}
