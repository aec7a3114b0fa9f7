import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { InvitationKind } from './invitation-kinds.js';
import type { HookBody } from '../../infra/odata/index.js';
import { deleteInvites, lockInvitesOf, otherInvites } from './invitation.repository.js';

/**
 * Rule (spec 1 §5, §8): one pending invite per e-mail (case-insensitively) and
 * organization or fleet: 400 `invitee_already_invited` while an unexpired one exists. An
 * expired one is replaced (deleted), so it can be re-sent. Runs after the insert (the new
 * invite is `newId`), so only callers the create rule admitted learn anything. Concurrent
 * invites of the same address to the same place are serialised by an advisory lock.
 */
export async function checkInviteeNotInvited(db: Db, kind: InvitationKind, body: HookBody<InvitationKind['resource'], 'POST'>, newId: number): Promise<void> {
  const target = body[kind.target];
  // One invitee row per address (case-insensitively), so the same address is the same id.
  if (typeof body.invitee !== 'number' || typeof target !== 'number') return;
  await lockInvitesOf(db, kind, target, body.invitee);
  const others = await otherInvites(db, kind, target, body.invitee, newId);
  if (others.some((r) => r.pending)) throw new BadRequestError('invitee_already_invited');
  if (others.length > 0) await deleteInvites(db, kind, others.map((r) => r.id));
}
