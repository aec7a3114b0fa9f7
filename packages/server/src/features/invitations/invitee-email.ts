import { INVITEE_MAX_LENGTH, isValidEmail } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import type { InvitationKind } from './invitation-kinds.js';
import { insertInvitee, inviteeIdByEmail } from './invitation.repository.js';

/**
 * Rule (spec 1 §5, §8): the invitee is a valid e-mail address, else 400 `invalid_email`.
 * Characters that would break an address header (`<>",;`) are refused too, since the mail
 * could not be sent. Stored trimmed; compared case-insensitively everywhere.
 */
export function checkInviteeEmail(body: HookBody<InvitationKind['resource'], 'POST', 'invitee'>): string {
  const invitee = body.invitee;
  if (typeof invitee !== 'string') throw new BadRequestError('invalid_email');
  const email = invitee.trim();
  if (email.length > INVITEE_MAX_LENGTH || !isValidEmail(email) || /[<>",;]/.test(email)) throw new BadRequestError('invalid_email');
  return email;
}

/**
 * Rule (balena's model): an invite's `invitee` is a row of `invitee` holding the e-mail, one
 * per address (case-insensitively); the POSTed address becomes that row's id, the row made
 * on first use. A concurrent first use of the same address waits for the other insert.
 */
export async function inviteeFor(db: Db, email: string): Promise<number> {
  await insertInvitee(db, email);
  return inviteeIdByEmail(db, email);
}
