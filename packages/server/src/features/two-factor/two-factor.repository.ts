import type { Db } from '../../infra/db/db.js';

// The two-factor feature's SQL: the user's TOTP secrets (stored sealed), recovery codes
// (stored as hashes) and failed attempts. Every function takes the pool or a transaction first.

export interface TwoFactorRow {
  secret: string | null;
  pending_secret: string | null;
  last_used_step: number | null;
}

/** The user's two-factor row; `lock` locks it until the end of the transaction. */
export async function findTwoFactor(db: Db, userId: number, lock: boolean): Promise<TwoFactorRow | undefined> {
  const { rows } = await db.query<TwoFactorRow>(
    `SELECT secret, pending_secret, last_used_step FROM user_two_factor WHERE "user" = $1${lock ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0];
}

/** The names a TOTP app shows for the account. */
export async function findUserNames(db: Db, userId: number): Promise<{ email: string; username: string } | undefined> {
  const { rows } = await db.query<{ email: string; username: string }>('SELECT email, username FROM "user" WHERE id = $1', [userId]);
  return rows[0];
}

/** Keeps `sealedSecret` pending (replacing an earlier pending one) until a code from it is verified. */
export async function setPendingSecret(tx: Db, userId: number, sealedSecret: string): Promise<void> {
  await tx.query(
    `INSERT INTO user_two_factor ("user", pending_secret) VALUES ($1, $2)
     ON CONFLICT ("user") DO UPDATE SET pending_secret = EXCLUDED.pending_secret`,
    [userId, sealedSecret],
  );
}

/** The pending secret becomes the secret, `step` its last used time step. */
export async function enablePendingSecret(tx: Db, userId: number, enabledAt: Date, step: number): Promise<void> {
  await tx.query(`UPDATE user_two_factor SET secret = pending_secret, pending_secret = NULL, enabled_at = $2, last_used_step = $3 WHERE "user" = $1`, [
    userId,
    enabledAt,
    step,
  ]);
}

/** Records `step` as used when it is later than the last used one; false when it was not (a replay). */
export async function useTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE user_two_factor SET last_used_step = $2 WHERE "user" = $1 AND secret IS NOT NULL
        AND (last_used_step IS NULL OR last_used_step < $2)`,
    [userId, step],
  );
  return rowCount === 1;
}

export async function disableTwoFactorRow(tx: Db, userId: number): Promise<void> {
  await tx.query('DELETE FROM user_two_factor WHERE "user" = $1', [userId]);
}

// ---- recovery codes

/** Uses one unused recovery code of the user with this hash; false when there is none. */
export async function useRecoveryCode(db: Db, userId: number, codeHash: string, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE two_factor_recovery_code SET used_timestamp = $3
      WHERE id = (SELECT id FROM two_factor_recovery_code
                   WHERE "user" = $1 AND recovery_code = $2 AND used_timestamp IS NULL LIMIT 1)
        AND used_timestamp IS NULL`,
    [userId, codeHash, now],
  );
  return rowCount === 1;
}

export async function deleteRecoveryCodes(tx: Db, userId: number): Promise<void> {
  await tx.query('DELETE FROM two_factor_recovery_code WHERE "user" = $1', [userId]);
}

export async function insertRecoveryCodes(tx: Db, userId: number, codeHashes: string[]): Promise<void> {
  await tx.query('INSERT INTO two_factor_recovery_code ("user", recovery_code) SELECT $1, unnest($2::text[])', [userId, codeHashes]);
}

// ---- sealing secrets stored before sealing existed

export interface StoredSecretsRow {
  user: number;
  secret: string | null;
  pending_secret: string | null;
}

/** Rows with a secret not starting with `sealedPrefix`, locked until the end of `tx`. */
export async function lockUnsealedSecrets(tx: Db, sealedPrefix: string): Promise<StoredSecretsRow[]> {
  const { rows } = await tx.query<StoredSecretsRow>(
    `SELECT "user", secret, pending_secret FROM user_two_factor
      WHERE (secret IS NOT NULL AND secret NOT LIKE $1) OR (pending_secret IS NOT NULL AND pending_secret NOT LIKE $1)
      FOR UPDATE`,
    [`${sealedPrefix}%`],
  );
  return rows;
}

export async function setSecrets(tx: Db, userId: number, secret: string | null, pendingSecret: string | null): Promise<void> {
  await tx.query('UPDATE user_two_factor SET secret = $2, pending_secret = $3 WHERE "user" = $1', [userId, secret, pendingSecret]);
}

// ---- failed attempts (two-factor-throttle.ts)

/** Failures of the user after `since` (at most `max` counted) and the oldest of them. */
export async function countTwoFactorFailures(db: Db, userId: number, since: Date, max: number): Promise<{ failures: number; oldest: Date | null } | undefined> {
  const { rows } = await db.query<{ failures: number; oldest: Date | null }>(
    `SELECT count(*)::int AS failures, min(failed_at) AS oldest
       FROM (SELECT failed_at FROM two_factor_failure
              WHERE "user" = $1 AND failed_at > $2
              ORDER BY failed_at DESC LIMIT $3) recent`,
    [userId, since, max],
  );
  return rows[0];
}

export async function insertTwoFactorFailure(db: Db, userId: number, at: Date): Promise<void> {
  await db.query('INSERT INTO two_factor_failure ("user", failed_at) VALUES ($1, $2)', [userId, at]);
}

/** Forgets the user's failures at or before `until`, or all of them. */
export async function deleteTwoFactorFailures(db: Db, userId: number, until?: Date): Promise<void> {
  if (until === undefined) await db.query('DELETE FROM two_factor_failure WHERE "user" = $1', [userId]);
  else await db.query('DELETE FROM two_factor_failure WHERE "user" = $1 AND failed_at <= $2', [userId, until]);
}
