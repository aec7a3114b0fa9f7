import { LOGIN_FAILURE_WINDOW_SECONDS, LOGIN_MAX_FAILURES } from '@flotilla/model';
import type { Db } from '../db/db.js';
import { TooManyRequestsError } from '../errors.js';
import { countLoginFailures, deleteLoginFailures, deleteOldLoginFailures, insertLoginFailure, lockLoginAddress } from './auth.repository.js';

/**
 * Failed password checks one source address may make within the window, over all accounts
 * (so one address cannot walk through many accounts either).
 */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 100;

/**
 * The counter a login attempt belongs to: the account when the name (username or e-mail)
 * matches one, so both share one counter; else the name sent, so unknown names are
 * throttled alike and the answer tells nothing.
 */
export function loginAccountKey(userId: number | undefined, submitted: string): string {
  return userId !== undefined ? `user:${userId}` : `name:${submitted.toLowerCase()}`;
}

/**
 * Counts a password check before it is made: 10 failures per account from one address
 * within 2 hours (and 100 per address over all accounts) answer 429 with Retry-After until
 * the oldest of them leaves the window. The attempt is recorded as a failure in the same
 * transaction, under a lock on the address, so parallel attempts cannot all pass the check
 * (40 at once let through at most 10); `loginSucceeded` removes it again. Failures from
 * another address never lock this one out. Stored in Postgres so every node agrees.
 */
export async function beginLoginAttempt(db: Db, account: string, address: string, submitted: string): Promise<void> {
  await db.tx(async (tx) => {
    await lockLoginAddress(tx, address);
    const r = await countLoginFailures(tx, account, address, LOGIN_FAILURE_WINDOW_SECONDS, LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_ADDRESS);
    if (r.account_failures >= LOGIN_MAX_FAILURES) throw new TooManyRequestsError(r.account_retry ?? LOGIN_FAILURE_WINDOW_SECONDS);
    if (r.address_failures >= LOGIN_MAX_FAILURES_PER_ADDRESS) throw new TooManyRequestsError(r.address_retry ?? LOGIN_FAILURE_WINDOW_SECONDS);
    await insertLoginFailure(tx, submitted, account, address);
    // Keep the table small: forget failures that left the window.
    await deleteOldLoginFailures(tx, LOGIN_FAILURE_WINDOW_SECONDS);
  });
}

/** The right password: this address's failures on the account (the attempt's own included) are forgotten. */
export async function loginSucceeded(db: Db, account: string, address: string): Promise<void> {
  await deleteLoginFailures(db, account, address);
}

/** A new password (reset by e-mail) lifts the account's lock from every address. */
export async function clearAccountLoginFailures(db: Db, userId: number): Promise<void> {
  await deleteLoginFailures(db, loginAccountKey(userId, ''));
}
