import type { Db } from '../../infra/db/db.js';
import { TooManyRequestsError } from '../../infra/errors.js';
import { countTwoFactorFailures, deleteTwoFactorFailures, insertTwoFactorFailure } from './two-factor.repository.js';

/**
 * Wrong two-factor codes (TOTP or recovery code) per user: 5 within 5 minutes stop every
 * further attempt until the oldest of them leaves the window (429 with Retry-After). With
 * three valid TOTP codes out of a million at any time, that makes guessing hopeless.
 * Stored in Postgres so every server node counts the same attempts; `now` is injectable.
 */
export const TWO_FACTOR_MAX_FAILURES = 5;
export const TWO_FACTOR_FAILURE_WINDOW_SECONDS = 300;

export async function assertTwoFactorAttemptAllowed(db: Db, userId: number, now: number): Promise<void> {
  const r = await countTwoFactorFailures(db, userId, new Date(now - TWO_FACTOR_FAILURE_WINDOW_SECONDS * 1000), TWO_FACTOR_MAX_FAILURES);
  if (r && r.failures >= TWO_FACTOR_MAX_FAILURES && r.oldest) {
    const retryAfterMs = r.oldest.getTime() + TWO_FACTOR_FAILURE_WINDOW_SECONDS * 1000 - now;
    throw new TooManyRequestsError(retryAfterMs / 1000);
  }
}

export async function recordTwoFactorFailure(db: Db, userId: number, now: number): Promise<void> {
  await insertTwoFactorFailure(db, userId, new Date(now));
  await deleteTwoFactorFailures(db, userId, new Date(now - TWO_FACTOR_FAILURE_WINDOW_SECONDS * 1000));
}

export async function clearTwoFactorFailures(db: Db, userId: number): Promise<void> {
  await deleteTwoFactorFailures(db, userId);
}
