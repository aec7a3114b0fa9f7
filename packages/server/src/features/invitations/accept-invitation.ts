import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../infra/errors.js';
import type { InvitationKind } from './invitation-kinds.js';
import { hashInvitationToken, INVITATION_TOKEN_PATTERN } from './invitation-token.js';
import {
  addOrganizationMember,
  addOrganizationMemberIfNone,
  deleteInvite,
  fleetById,
  inviteByTokenHash,
  organizationById,
  setFleetMembership,
} from './invitation.repository.js';

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
export async function acceptInvitation(
  db: Db,
  kind: InvitationKind,
  userId: number,
  token: string,
  /** Billing: may the fleet role be granted now (an operator invitation after a downgrade: 400, nothing written)? */
  checkFleetRole?: (tx: Db, fleetId: number, roleId: number) => Promise<void>,
): Promise<AcceptResult> {
  if (!INVITATION_TOKEN_PATTERN.test(token)) throw new NotFoundError(UNKNOWN);
  return db.tx(async (tx) => {
    const invite = await inviteByTokenHash(tx, kind, hashInvitationToken(token), userId);
    if (!invite) throw new NotFoundError(UNKNOWN);
    if (invite.expired) throw new BadRequestError(EXPIRED);
    if (!invite.mine) throw new ForbiddenError('This invitation was sent to another e-mail address; sign in with that address to accept it');

    let result: AcceptResult;
    if (kind.kind === 'organization') {
      await addOrganizationMember(tx, userId, invite.target, invite.role);
      result = { organization: (await organizationById(tx, invite.target))! };
    } else {
      const fleet = (await fleetById(tx, invite.target))!;
      await checkFleetRole?.(tx, fleet.id, invite.role);
      await addOrganizationMemberIfNone(tx, userId, fleet.organization);
      await setFleetMembership(tx, userId, fleet.id, invite.role);
      result = { application: { id: fleet.id, app_name: fleet.app_name } };
    }
    await deleteInvite(tx, kind, invite.id);
    return result;
  });
}
