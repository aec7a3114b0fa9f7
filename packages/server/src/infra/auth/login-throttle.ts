import { LOGIN_FAILURE_WINDOW_SECONDS, LOGIN_MAX_FAILURES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { TooManyRequestsError } from '../../infra/errors.js';

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
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`login-throttle:${address}`]);
    const { rows } = await tx.query<{ account_failures: number; account_retry: number | null; address_failures: number; address_retry: number | null }>(
      `WITH account_recent AS (
         SELECT failed_at FROM login_failure
          WHERE account = $1 AND address = $2 AND failed_at > now() - make_interval(secs => $3)
          ORDER BY failed_at DESC LIMIT $4),
       address_recent AS (
         SELECT failed_at FROM login_failure
          WHERE address = $2 AND failed_at > now() - make_interval(secs => $3)
          ORDER BY failed_at DESC LIMIT $5)
       SELECT (SELECT count(*)::int FROM account_recent) AS account_failures,
              (SELECT extract(epoch FROM (min(failed_at) + make_interval(secs => $3) - now()))::float FROM account_recent) AS account_retry,
              (SELECT count(*)::int FROM address_recent) AS address_failures,
              (SELECT extract(epoch FROM (min(failed_at) + make_interval(secs => $3) - now()))::float FROM address_recent) AS address_retry`,
      [account, address, LOGIN_FAILURE_WINDOW_SECONDS, LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_ADDRESS],
    );
    const r = rows[0]!;
    if (r.account_failures >= LOGIN_MAX_FAILURES) throw new TooManyRequestsError(r.account_retry ?? LOGIN_FAILURE_WINDOW_SECONDS);
    if (r.address_failures >= LOGIN_MAX_FAILURES_PER_ADDRESS) throw new TooManyRequestsError(r.address_retry ?? LOGIN_FAILURE_WINDOW_SECONDS);
    await tx.query('INSERT INTO login_failure (username, account, address) VALUES ($1, $2, $3)', [submitted, account, address]);
    // Keep the table small: forget failures that left the window.
    await tx.query(`DELETE FROM login_failure WHERE failed_at < now() - make_interval(secs => $1)`, [LOGIN_FAILURE_WINDOW_SECONDS]);
  });
}

/** The right password: this address's failures on the account (the attempt's own included) are forgotten. */
export async function loginSucceeded(db: Db, account: string, address: string): Promise<void> {
  await db.query('DELETE FROM login_failure WHERE account = $1 AND address = $2', [account, address]);
}

/** A new password (reset by e-mail) lifts the account's lock from every address. */
export async function clearAccountLoginFailures(db: Db, userId: number): Promise<void> {
  await db.query('DELETE FROM login_failure WHERE account = $1', [loginAccountKey(userId, '')]);
}
