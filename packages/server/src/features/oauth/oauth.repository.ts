import type { Db } from '../../infra/db/db.js';

// The OAuth feature's SQL: registered applications, the user's authorizations and the
// authorization codes (stored as hashes). Every function takes the pool or a transaction first.

export interface OAuthApplicationRow {
  id: number;
  client_id: string;
  redirect_uri: string;
  name: string;
}

export async function findOAuthApplication(db: Db, clientId: string): Promise<OAuthApplicationRow | undefined> {
  const { rows } = await db.query<OAuthApplicationRow>('SELECT id, client_id, redirect_uri, name FROM oauth_application WHERE client_id = $1', [clientId]);
  return rows[0];
}

/** Records that the user authorized the application (once). */
export async function recordAuthorization(tx: Db, userId: number, applicationId: number): Promise<void> {
  await tx.query(
    `INSERT INTO oauth_application_authorization (belongs_to__user, is_for__oauth_application) VALUES ($1, $2)
     ON CONFLICT (belongs_to__user, is_for__oauth_application) DO NOTHING`,
    [userId, applicationId],
  );
}

export async function insertAuthorizationCode(
  tx: Db,
  code: { hash: string; userId: number; applicationId: number; redirectUri: string; expiresAt: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO oauth_authorization_code (code_hash, "user", oauth_application, redirect_uri, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [code.hash, code.userId, code.applicationId, code.redirectUri, code.expiresAt],
  );
}

export async function deleteCodesExpiredBefore(tx: Db, before: Date): Promise<void> {
  await tx.query('DELETE FROM oauth_authorization_code WHERE expires_at < $1', [before]);
}

/**
 * Marks the code (by hash) used and answers its user, when it belongs to `clientId`, names
 * `redirectUri` (when given), is unexpired at `now` and unused; in one statement, so two
 * concurrent exchanges cannot both succeed.
 */
export async function useAuthorizationCode(
  db: Db,
  codeHash: string,
  clientId: string,
  redirectUri: string | null,
  now: Date,
): Promise<number | undefined> {
  const { rows } = await db.query<{ user: number }>(
    `UPDATE oauth_authorization_code c SET used_at = $4
       FROM oauth_application a
      WHERE c.code_hash = $1 AND a.id = c.oauth_application AND a.client_id = $2
        AND ($3::text IS NULL OR c.redirect_uri = $3) AND c.used_at IS NULL AND c.expires_at > $4
     RETURNING c."user"`,
    [codeHash, clientId, redirectUri, now],
  );
  return rows[0]?.user;
}
