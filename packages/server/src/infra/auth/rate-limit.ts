import { rateLimitText } from '@flotilla/model';
import type { Db } from '../db/db.js';
import { HttpError } from '../errors.js';
import { countMailRequests, deleteMailRequestsBefore, insertMailRequest } from './auth.repository.js';

export type MailRequestKind = 'password-reset-email' | 'password-reset-ip' | 'verification-email' | 'sign-up-existing-email';

/**
 * 429 with the next valid time (spec 1 §8): the body is `{message, nextValidTime}` so the
 * dashboard can say 'available again in …'; `Retry-After` carries the same in seconds.
 */
export class RateLimitedError extends HttpError {
  constructor(
    readonly nextValidTime: Date,
    now: Date,
  ) {
    const seconds = Math.max(1, Math.ceil((nextValidTime.getTime() - now.getTime()) / 1000));
    super(429, rateLimitText(nextValidTime, now), { 'Retry-After': String(seconds) });
  }

  body(): { message: string; nextValidTime: string } {
    return { message: this.message, nextValidTime: this.nextValidTime.toISOString() };
  }
}

/**
 * Counts this kind of request for `subject` inside the window; when `max` are already there,
 * throws RateLimitedError with the time the oldest of them leaves the window. Otherwise
 * records this request (in `db`, so a rolled-back request does not count).
 */
export async function takeRequestSlot(
  db: Db,
  kind: MailRequestKind,
  subject: string,
  limit: { max: number; windowSeconds: number },
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - limit.windowSeconds * 1000);
  const key = subject.toLowerCase().slice(0, 255);
  const r = await countMailRequests(db, kind, key, since, limit.max);
  if (r && r.n >= limit.max && r.oldest) {
    throw new RateLimitedError(new Date(r.oldest.getTime() + limit.windowSeconds * 1000), now);
  }
  await insertMailRequest(db, kind, key, now);
  // Forget what left every window (the longest is a day).
  await deleteMailRequestsBefore(db, new Date(now.getTime() - 24 * 3600 * 1000));
}
