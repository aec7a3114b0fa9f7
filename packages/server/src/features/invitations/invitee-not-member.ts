import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { InvitationKind } from './invitation-kinds.js';
import type { HookBody } from '../../infra/odata/index.js';
import { inviteeIsMember } from './invitation.repository.js';

/**
 * Rule (spec 1 §5, §8): nobody is invited where they already are: 400
 * `invitee_already_exist` when a user with the invitee's e-mail (case-insensitively) is a
 * member of the organization, or for a fleet has a fleet membership or administers the
 * fleet's organization (and so the fleet). Runs after the insert, like the pending check.
 */
export async function checkInviteeNotMember(db: Db, kind: InvitationKind, body: HookBody<InvitationKind['resource'], 'POST'>): Promise<void> {
  const target = body[kind.target];
  if (typeof body.invitee !== 'number' || typeof target !== 'number') return; // required-field checks answer
  if (await inviteeIsMember(db, kind, target, body.invitee)) throw new BadRequestError('invitee_already_exist');
}
