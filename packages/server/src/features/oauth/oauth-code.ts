import { createHash } from 'node:crypto';
import { alphanumericSecret } from '../../infra/auth/secret.js';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, NotFoundError } from '../../infra/errors.js';

/** Authorization codes live this long (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const OAUTH_CODE_LIFETIME_MS = 5 * 60 * 1000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface OAuthApplicationRow {
  id: number;
  client_id: string;
  redirect_uri: string;
  name: string;
}

export async function applicationByClientId(db: Db, clientId: string): Promise<OAuthApplicationRow> {
  const { rows } = await db.query<OAuthApplicationRow>(
    'SELECT id, client_id, redirect_uri, name FROM oauth_application WHERE client_id = $1',
    [clientId],
  );
  if (!rows[0]) throw new NotFoundError('Unknown OAuth application');
  return rows[0];
}

/**
 * The user consents to the application (spec 1 §2 `/login/oauth/{clientId}`, §7 `POST
 * /oauth/authorize`): the consent is recorded (oauth_application_authorization, once per
 * user and application) and a single-use code is issued for the application's registered
 * redirect_uri. Only the code's SHA-256 is stored.
 */
export async function authorize(db: Db, userId: number, clientId: string, now: number = Date.now()): Promise<{ code: string; redirectUri: string }> {
  const app = await applicationByClientId(db, clientId);
  const code = alphanumericSecret(256);
  await db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO oauth_application_authorization (belongs_to__user, is_for__oauth_application) VALUES ($1, $2)
       ON CONFLICT (belongs_to__user, is_for__oauth_application) DO NOTHING`,
      [userId, app.id],
    );
    await tx.query(
      `INSERT INTO oauth_authorization_code (code_hash, "user", oauth_application, redirect_uri, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [sha256(code), userId, app.id, app.redirect_uri, new Date(now + OAUTH_CODE_LIFETIME_MS)],
    );
    // Keep the table small: codes that can no longer be used.
    await tx.query('DELETE FROM oauth_authorization_code WHERE expires_at < $1', [new Date(now - OAUTH_CODE_LIFETIME_MS)]);
  });
  return { code, redirectUri: app.redirect_uri };
}

export const INVALID_GRANT = 'invalid_grant';

/**
 * Exchanges a code for the user it was issued to: it must exist, belong to `clientId`, name
 * the same redirect_uri when one is given, be unexpired and unused. It is marked used in
 * the same statement, so two concurrent exchanges cannot both succeed.
 */
export async function redeemCode(
  db: Db,
  input: { code: string; clientId: string; redirectUri?: string },
  now: number = Date.now(),
): Promise<{ userId: number }> {
  const { rows } = await db.query<{ user: number }>(
    `UPDATE oauth_authorization_code c SET used_at = $4
       FROM oauth_application a
      WHERE c.code_hash = $1 AND a.id = c.oauth_application AND a.client_id = $2
        AND ($3::text IS NULL OR c.redirect_uri = $3) AND c.used_at IS NULL AND c.expires_at > $4
     RETURNING c."user"`,
    [sha256(input.code), input.clientId, input.redirectUri ?? null, new Date(now)],
  );
  if (!rows[0]) throw new BadRequestError(INVALID_GRANT);
  return { userId: rows[0].user };
}
