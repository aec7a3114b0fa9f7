import type { Db } from '../../infra/db/db.js';

// The social-login feature's SQL: flows in progress (social_login_state), link intents
// (social_link_intent), and the social_service_account rows the flows write. Secrets are
// stored as SHA-256 hashes. Every function takes the pool or a transaction first.

export interface LoginStateRow {
  provider: string;
  nonce: string;
  code_verifier: string;
  browser_hash: string;
  link_user: number | null;
}

export async function insertLoginState(
  db: Db,
  row: { stateHash: string; provider: string; nonce: string; codeVerifier: string; browserHash: string; linkUser: number | null; expiresAt: Date },
  now: Date,
): Promise<void> {
  // Keep the table small: flows that can no longer finish.
  await db.query('DELETE FROM social_login_state WHERE expires_at < $1', [now]);
  await db.query(
    `INSERT INTO social_login_state (state_hash, provider, nonce, code_verifier, browser_hash, link_user, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.stateHash, row.provider, row.nonce, row.codeVerifier, row.browserHash, row.linkUser, row.expiresAt],
  );
}

/**
 * Takes a flow by its state: deleted in the same statement whatever follows (single use, so a
 * replayed callback finds nothing); only an unexpired one of this provider is answered.
 */
export async function takeLoginState(db: Db, stateHash: string, provider: string, now: Date): Promise<LoginStateRow | undefined> {
  const { rows } = await db.query<LoginStateRow & { expires_at: Date }>(
    `DELETE FROM social_login_state WHERE state_hash = $1
     RETURNING provider, nonce, code_verifier, browser_hash, link_user, expires_at`,
    [stateHash],
  );
  const row = rows[0];
  return row && row.provider === provider && row.expires_at > now ? row : undefined;
}

export async function insertLinkIntent(db: Db, row: { tokenHash: string; provider: string; userId: number; expiresAt: Date }, now: Date): Promise<void> {
  await db.query('DELETE FROM social_link_intent WHERE expires_at < $1 OR "user" = $2', [now, row.userId]);
  await db.query('INSERT INTO social_link_intent (token_hash, provider, "user", expires_at) VALUES ($1, $2, $3, $4)', [
    row.tokenHash,
    row.provider,
    row.userId,
    row.expiresAt,
  ]);
}

/** Takes a link intent (single use): the user who asked, when it is unexpired and for this provider. */
export async function takeLinkIntent(db: Db, tokenHash: string, provider: string, now: Date): Promise<number | undefined> {
  const { rows } = await db.query<{ user: number; provider: string; expires_at: Date }>(
    'DELETE FROM social_link_intent WHERE token_hash = $1 RETURNING "user", provider, expires_at',
    [tokenHash],
  );
  const row = rows[0];
  return row && row.provider === provider && row.expires_at > now ? row.user : undefined;
}

export interface SocialAccountRow {
  id: number;
  belongs_to__user: number;
  provider: string;
}

export async function findSocialAccount(db: Db, provider: string, remoteId: string): Promise<SocialAccountRow | undefined> {
  const { rows } = await db.query<SocialAccountRow>(
    'SELECT id, belongs_to__user, provider FROM social_service_account WHERE provider = $1 AND remote_id = $2',
    [provider, remoteId],
  );
  return rows[0];
}

export async function findUserSocialAccounts(db: Db, userId: number): Promise<SocialAccountRow[]> {
  const { rows } = await db.query<SocialAccountRow>(
    'SELECT id, belongs_to__user, provider FROM social_service_account WHERE belongs_to__user = $1 ORDER BY id',
    [userId],
  );
  return rows;
}

export async function insertSocialAccount(db: Db, row: { userId: number; provider: string; remoteId: string; displayName: string | null }): Promise<void> {
  await db.query('INSERT INTO social_service_account (belongs_to__user, provider, remote_id, display_name) VALUES ($1, $2, $3, $4)', [
    row.userId,
    row.provider,
    row.remoteId,
    row.displayName,
  ]);
}

export async function updateSocialDisplayName(db: Db, id: number, displayName: string | null): Promise<void> {
  await db.query('UPDATE social_service_account SET display_name = $2 WHERE id = $1 AND display_name IS DISTINCT FROM $2', [id, displayName]);
}

/** Locks the user's row (an unlink checks what is left under it, so two unlinks cannot each leave the other as the last). */
export async function lockUser(tx: Db, userId: number): Promise<{ has_password_set: boolean } | undefined> {
  const { rows } = await tx.query<{ has_password_set: boolean }>('SELECT has_password_set FROM "user" WHERE id = $1 FOR UPDATE', [userId]);
  return rows[0];
}

export async function countSamlAccounts(db: Db, userId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM saml_account WHERE belongs_to__user = $1', [userId]);
  return rows[0]?.n ?? 0;
}

export async function deleteSocialAccount(tx: Db, id: number): Promise<void> {
  await tx.query('DELETE FROM social_service_account WHERE id = $1', [id]);
}

/** The user holding this e-mail address (case-insensitively), if any. */
export async function findUserIdByEmail(db: Db, email: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM "user" WHERE lower(email) = lower($1)', [email]);
  return rows[0]?.id;
}
