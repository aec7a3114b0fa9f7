import type { Db } from '../../infra/db/db.js';

// The account-recovery feature's SQL: e-mail verification tokens, password reset codes (both
// stored as hashes), the verification and profile fields of the user. Every function takes
// the pool or the caller's transaction first.

// ---- e-mail verification

export async function isUserVerified(db: Db, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ is_verified: boolean }>('SELECT is_verified FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.is_verified === true;
}

export interface VerificationUserRow {
  id: number;
  email: string;
  is_verified: boolean;
}

export async function findVerificationUser(db: Db, userId: number): Promise<VerificationUserRow | undefined> {
  const { rows } = await db.query<VerificationUserRow>('SELECT id, email, is_verified FROM "user" WHERE id = $1', [userId]);
  return rows[0];
}

/** The id of the user among `ids` whose actor is `actorId` (the caller's own row), if any. */
export async function ownUserAmong(tx: Db, actorId: number, ids: readonly number[]): Promise<number | undefined> {
  const { rows } = await tx.query<{ id: number }>('SELECT id FROM "user" WHERE actor = $1 AND id = ANY($2::int[])', [actorId, ids]);
  return rows[0]?.id;
}

export async function insertVerificationToken(db: Db, token: { userId: number; email: string; hash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db.query(`INSERT INTO email_verification_token ("user", email, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
    token.userId,
    token.email,
    token.hash,
    token.createdAt,
    token.expiresAt,
  ]);
}

export async function markVerificationEmailSent(db: Db, userId: number): Promise<void> {
  await db.query('UPDATE "user" SET has_been_sent_verification_email = true WHERE id = $1', [userId]);
}

export interface VerificationTokenRow {
  id: number;
  user: number;
  email: string;
  expires_at: Date;
  used_at: Date | null;
  /** The user's address now (the token is for the address it was sent to). */
  current_email: string;
}

/** The token with this hash, locked until the end of `tx`. */
export async function lockVerificationToken(tx: Db, hash: string): Promise<VerificationTokenRow | undefined> {
  const { rows } = await tx.query<VerificationTokenRow>(
    `SELECT t.id, t."user", t.email, t.expires_at, t.used_at, u.email AS current_email
       FROM email_verification_token t JOIN "user" u ON u.id = t."user"
      WHERE t.token_hash = $1 FOR UPDATE OF t`,
    [hash],
  );
  return rows[0];
}

/** Uses up every open token of the user and marks the user verified. */
export async function verifyUser(tx: Db, userId: number, now: Date): Promise<void> {
  await tx.query('UPDATE email_verification_token SET used_at = $2 WHERE "user" = $1 AND used_at IS NULL', [userId, now]);
  await tx.query('UPDATE "user" SET is_verified = true WHERE id = $1', [userId]);
}

// ---- password reset

/** The account holding `email` (compared case-insensitively). */
export async function findUserByEmail(db: Db, email: string): Promise<{ id: number; email: string } | undefined> {
  const { rows } = await db.query<{ id: number; email: string }>('SELECT id, email FROM "user" WHERE lower(email) = lower($1)', [email]);
  return rows[0];
}

export async function insertResetCode(tx: Db, code: { userId: number; hash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
  await tx.query(`INSERT INTO password_reset_code ("user", code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)`, [
    code.userId,
    code.hash,
    code.createdAt,
    code.expiresAt,
  ]);
}

export interface ResetCodeRow {
  user: number;
  expires_at: Date;
  used_at: Date | null;
}

/** The reset code with this hash, locked until the end of `tx`. */
export async function lockResetCode(tx: Db, hash: string): Promise<ResetCodeRow | undefined> {
  const { rows } = await tx.query<ResetCodeRow>('SELECT "user", expires_at, used_at FROM password_reset_code WHERE code_hash = $1 FOR UPDATE', [hash]);
  return rows[0];
}

/** Uses up every open reset code of the user and sets the new password (which also verifies the address). */
export async function setPasswordFromReset(tx: Db, userId: number, passwordHash: string, now: Date): Promise<void> {
  await tx.query('UPDATE password_reset_code SET used_at = $2 WHERE "user" = $1 AND used_at IS NULL', [userId, now]);
  await tx.query('UPDATE "user" SET password = $2, has_password_set = true, is_verified = true WHERE id = $1', [userId, passwordHash]);
}

// ---- profile

export interface ProfileFields {
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  account_type: string | null;
}

export async function updateProfile(db: Db, userId: number, profile: ProfileFields): Promise<void> {
  await db.query('UPDATE "user" SET first_name = $2, last_name = $3, company = $4, account_type = $5 WHERE id = $1', [
    userId,
    profile.first_name,
    profile.last_name,
    profile.company,
    profile.account_type,
  ]);
}

export interface AccountStateRow extends ProfileFields {
  email: string;
  is_verified: boolean;
  has_been_sent_verification_email: boolean;
}

export async function findAccountState(db: Db, userId: number): Promise<AccountStateRow | undefined> {
  const { rows } = await db.query<AccountStateRow>(
    'SELECT email, is_verified, has_been_sent_verification_email, first_name, last_name, company, account_type FROM "user" WHERE id = $1',
    [userId],
  );
  return rows[0];
}
