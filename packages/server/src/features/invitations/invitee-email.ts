import { isValidEmail } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';

/**
 * Rule (spec 1 §5, §8): the invitee is a valid e-mail address, else 400 `invalid_email`.
 * Characters that would break an address header (`<>",;`) are refused too, since the mail
 * could not be sent. Stored trimmed; compared case-insensitively everywhere.
 */
export function checkInviteeEmail(body: Record<string, unknown>): void {
  const invitee = body.invitee;
  if (typeof invitee !== 'string' || !isValidEmail(invitee.trim()) || /[<>",;]/.test(invitee)) throw new BadRequestError('invalid_email');
  body.invitee = invitee.trim();
}
