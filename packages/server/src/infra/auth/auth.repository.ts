import type { Db } from '../db/db.js';

// The SQL of infra/auth: sessions, the login throttle, account-mail rate limits, API keys and
// the JWT secret. Every function takes the pool or the caller's transaction first.

// ---- users and sessions

/** What authenticating a session token needs of its user. */
export interface SessionUserRow {
  id: number;
  actor: number;
  platform_role: string | null;
  tokens_valid_after: Date | null;
}

export async function findSessionUser(db: Db, userId: number): Promise<SessionUserRow | undefined> {
  const { rows } = await db.query<SessionUserRow>('SELECT id, actor, platform_role, tokens_valid_after FROM "user" WHERE id = $1', [userId]);
  return rows[0];
}

/** What issuing a session token needs of its user. */
export interface TokenUserRow {
  platform_role: string | null;
  two_factor: boolean;
  tokens_valid_after: Date | null;
}

export async function findTokenUser(db: Db, userId: number): Promise<TokenUserRow | undefined> {
  const { rows } = await db.query<TokenUserRow>(
    `SELECT u.platform_role, u.tokens_valid_after, EXISTS (SELECT 1 FROM user_two_factor tf WHERE tf."user" = u.id AND tf.secret IS NOT NULL) AS two_factor
       FROM "user" u WHERE u.id = $1`,
    [userId],
  );
  return rows[0];
}

/** A user whose own password is checked (password-check.ts). */
export interface PasswordUserRow {
  id: number;
  username: string;
  email: string;
  password: string | null;
  has_password_set: boolean;
}

export async function findPasswordUser(db: Db, userId: number): Promise<PasswordUserRow | undefined> {
  const { rows } = await db.query<PasswordUserRow>('SELECT id, username, email, password, has_password_set FROM "user" WHERE id = $1', [userId]);
  return rows[0];
}

/** Session tokens issued before `validAfter` stop working (session-revocation.ts). */
export async function setTokensValidAfter(db: Db, userId: number, validAfter: Date): Promise<void> {
  await db.query('UPDATE "user" SET tokens_valid_after = $2 WHERE id = $1', [userId, validAfter]);
}

// ---- API keys

/** An API key with whichever actor holds it (user, device or application). */
export interface ApiKeyActorRow {
  id: number;
  actor: number;
  expiry_date: Date | null;
  expired: boolean;
  user_id: number | null;
  platform_role: string | null;
  device_id: number | null;
  application_id: number | null;
}

export async function findApiKeyActor(db: Db, keyHash: string): Promise<ApiKeyActorRow | undefined> {
  const { rows } = await db.query<ApiKeyActorRow>(
    `SELECT k.id, k.is_of__actor AS actor, k.expiry_date, (k.expiry_date IS NOT NULL AND k.expiry_date <= now()) AS expired,
            u.id AS user_id, u.platform_role, d.id AS device_id, a.id AS application_id
       FROM api_key k
       LEFT JOIN "user" u ON u.actor = k.is_of__actor
       LEFT JOIN device d ON d.actor = k.is_of__actor
       LEFT JOIN application a ON a.actor = k.is_of__actor
      WHERE k.key = $1`,
    [keyHash],
    { name: 'auth-api-key' },
  );
  return rows[0];
}

// ---- the JWT secret

/** The stored JWT secret, made from `candidate` the first time. */
export async function storedJwtSecret(db: Db, candidate: string): Promise<string> {
  await db.query(`INSERT INTO flotilla_secret (name, value) VALUES ('jwt', $1) ON CONFLICT (name) DO NOTHING`, [candidate]);
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM flotilla_secret WHERE name = 'jwt'`);
  return rows[0]!.value;
}

// ---- the login throttle (login-throttle.ts)

export interface LoginFailureCounts {
  account_failures: number;
  account_retry: number | null;
  address_failures: number;
  address_retry: number | null;
}

/** Serialises login attempts from one address until the end of `tx`. */
export async function lockLoginAddress(tx: Db, address: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`login-throttle:${address}`]);
}

/**
 * Recent failures (within `windowSeconds`) of `account` from `address` (at most
 * `accountMax` counted) and of `address` over all accounts (at most `addressMax`), with the
 * seconds until the oldest of each leaves the window.
 */
export async function countLoginFailures(
  tx: Db,
  account: string,
  address: string,
  windowSeconds: number,
  accountMax: number,
  addressMax: number,
): Promise<LoginFailureCounts> {
  const { rows } = await tx.query<LoginFailureCounts>(
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
    [account, address, windowSeconds, accountMax, addressMax],
  );
  return rows[0]!;
}

export async function insertLoginFailure(tx: Db, username: string, account: string, address: string): Promise<void> {
  await tx.query('INSERT INTO login_failure (username, account, address) VALUES ($1, $2, $3)', [username, account, address]);
}

/** Forgets failures older than the window. */
export async function deleteOldLoginFailures(tx: Db, windowSeconds: number): Promise<void> {
  await tx.query(`DELETE FROM login_failure WHERE failed_at < now() - make_interval(secs => $1)`, [windowSeconds]);
}

/** Forgets the failures of `account`: from `address` only, or from every address. */
export async function deleteLoginFailures(db: Db, account: string, address?: string): Promise<void> {
  if (address === undefined) await db.query('DELETE FROM login_failure WHERE account = $1', [account]);
  else await db.query('DELETE FROM login_failure WHERE account = $1 AND address = $2', [account, address]);
}

// ---- account-mail rate limits (rate-limit.ts)

/** Requests of `kind` for `subject` after `since` (at most `max` counted) and the oldest of them. */
export async function countMailRequests(db: Db, kind: string, subject: string, since: Date, max: number): Promise<{ n: number; oldest: Date | null } | undefined> {
  const { rows } = await db.query<{ n: number; oldest: Date | null }>(
    `SELECT count(*)::int AS n, min(requested_at) AS oldest FROM (
       SELECT requested_at FROM account_mail_request
        WHERE kind = $1 AND subject = $2 AND requested_at > $3
        ORDER BY requested_at DESC LIMIT $4) recent`,
    [kind, subject, since, max],
  );
  return rows[0];
}

export async function insertMailRequest(db: Db, kind: string, subject: string, at: Date): Promise<void> {
  await db.query('INSERT INTO account_mail_request (kind, subject, requested_at) VALUES ($1, $2, $3)', [kind, subject, at]);
}

export async function deleteMailRequestsBefore(db: Db, before: Date): Promise<void> {
  await db.query(`DELETE FROM account_mail_request WHERE requested_at < $1`, [before]);
}
