import { createHash } from 'node:crypto';
import { alphanumericSecret } from '../../infra/auth/secret.js';
import { INVITATION_TTL_DAYS } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import type { InvitationKind } from './invitation-kinds.js';
import { userIdOfActor } from './invitation.repository.js';

/** SHA-256 (hex) of an invitation token: what the database keeps. */
export const hashInvitationToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Tokens are 43 letters and digits (256 bits; issue 22); older ones were 32 random bytes in base64url, still accepted. */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The plain tokens of invites being created, from `before` to `after` (keyed by the request body). */
const pending = new WeakMap<object, string>();

/**
 * Rule: the server makes the invite's secret parts. A random token (mailed, never stored),
 * its SHA-256 in `token_hash`, the expiry (INVITATION_TTL_DAYS), and `is_created_by__user`
 * from the actor (a user only: an invitation names who sent it).
 */
export async function prepareInvitation(db: Db, actorId: number | null, body: HookBody<InvitationKind['resource'], 'POST'>, now: number): Promise<void> {
  const userId = await userIdOfActor(db, actorId);
  if (userId === undefined) throw new BadRequestError('Only users can send invitations');
  const token = alphanumericSecret(256);
  pending.set(body, token);
  body.is_created_by__user = userId;
  body.token_hash = hashInvitationToken(token);
  body.expiry = new Date(now + INVITATION_TTL_DAYS * 24 * 3600 * 1000).toISOString();
}

/** The plain token `prepareInvitation` made for this body. */
export function invitationTokenOf(body: HookBody<InvitationKind['resource'], 'POST'>): string | undefined {
  return pending.get(body);
}
