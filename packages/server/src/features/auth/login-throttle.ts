import { LOGIN_FAILURE_WINDOW_SECONDS, LOGIN_MAX_FAILURES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { TooManyRequestsError } from '../../infra/errors.js';

/**
 * 10 failed logins per username within 2 hours lock that username until the oldest of
 * those failures leaves the window. Stored in Postgres so every server node agrees.
 */
export async function assertLoginAllowed(db: Db, username: string): Promise<void> {
  const { rows } = await db.query<{ failures: number; retry_after: number | null }>(
    `SELECT count(*)::int AS failures,
            extract(epoch FROM (min(failed_at) + make_interval(secs => $2) - now()))::float AS retry_after
       FROM (SELECT failed_at FROM login_failure
              WHERE lower(username) = lower($1) AND failed_at > now() - make_interval(secs => $2)
              ORDER BY failed_at DESC LIMIT $3) recent`,
    [username, LOGIN_FAILURE_WINDOW_SECONDS, LOGIN_MAX_FAILURES],
  );
  const r = rows[0];
  if (r && r.failures >= LOGIN_MAX_FAILURES) throw new TooManyRequestsError(r.retry_after ?? LOGIN_FAILURE_WINDOW_SECONDS);
}

export async function recordLoginFailure(db: Db, username: string): Promise<void> {
  await db.query('INSERT INTO login_failure (username) VALUES ($1)', [username]);
  // Keep the table small: forget failures that left the window.
  await db.query(`DELETE FROM login_failure WHERE failed_at < now() - make_interval(secs => $1)`, [LOGIN_FAILURE_WINDOW_SECONDS]);
}

export async function clearLoginFailures(db: Db, username: string): Promise<void> {
  await db.query('DELETE FROM login_failure WHERE lower(username) = lower($1)', [username]);
}
