import type { Db } from '../../infra/db/db.js';

// The SAML sign-in's SQL (features/saml, migration 0044): identity providers as the sign-in
// reads them, the AuthnRequests issued, the assertions seen, the login codes, and the SAML
// accounts with what a sign-in grants.

export interface IdentityProviderRow {
  id: number;
  sso_identifier: string;
  entry_point: string;
  issuer: string;
  certificate: string;
  requires_signed_authn_response: boolean;
}

export async function findIdentityProvider(db: Db, ssoIdentifier: string): Promise<IdentityProviderRow | undefined> {
  const { rows } = await db.query<IdentityProviderRow>(
    `SELECT id, sso_identifier, entry_point, issuer, certificate, requires_signed_authn_response
       FROM identity_provider WHERE sso_identifier = $1`,
    [ssoIdentifier],
  );
  return rows[0];
}

/** Remembers an AuthnRequest we issued until `expiresAt`; drops the expired ones. */
export async function saveAuthnRequest(db: Db, requestId: string, identityProvider: number, expiresAt: Date, now: Date): Promise<void> {
  await db.query('DELETE FROM saml_authn_request WHERE expires_at <= $1', [now]);
  await db.query(
    `INSERT INTO saml_authn_request (request_id, identity_provider, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (request_id) DO NOTHING`,
    [requestId, identityProvider, expiresAt],
  );
}

/** When an unexpired AuthnRequest we issued for this provider expires (undefined: none). */
export async function authnRequestExpiry(db: Db, requestId: string, identityProvider: number, now: Date): Promise<Date | undefined> {
  const { rows } = await db.query<{ expires_at: Date }>(
    'SELECT expires_at FROM saml_authn_request WHERE request_id = $1 AND identity_provider = $2 AND expires_at > $3',
    [requestId, identityProvider, now],
  );
  return rows[0]?.expires_at;
}

export async function deleteAuthnRequest(db: Db, requestId: string, identityProvider: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM saml_authn_request WHERE request_id = $1 AND identity_provider = $2', [requestId, identityProvider]);
  return rowCount > 0;
}

/**
 * Records an assertion as used until `expiresAt`; false when it was already used (a replay).
 * Expired entries are dropped first.
 */
export async function recordAssertion(db: Db, identityProvider: number, assertionId: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.query('DELETE FROM saml_assertion_seen WHERE expires_at <= $1', [now]);
  const { rowCount } = await db.query(
    `INSERT INTO saml_assertion_seen (identity_provider, assertion_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (identity_provider, assertion_id) DO NOTHING`,
    [identityProvider, assertionId, expiresAt],
  );
  return rowCount > 0;
}

export async function findSamlAccountUser(db: Db, identityProvider: number, remoteId: string): Promise<number | undefined> {
  const { rows } = await db.query<{ user: number }>(
    'SELECT belongs_to__user AS "user" FROM saml_account WHERE was_generated_by__identity_provider = $1 AND remote_id = $2',
    [identityProvider, remoteId],
  );
  return rows[0]?.user;
}

export async function findUserByEmail(db: Db, email: string): Promise<{ id: number; email: string } | undefined> {
  const { rows } = await db.query<{ id: number; email: string }>('SELECT id, email FROM "user" WHERE lower(email) = lower($1) LIMIT 1', [email]);
  return rows[0];
}

export async function findUserEmail(db: Db, userId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string }>('SELECT email FROM "user" WHERE id = $1', [userId]);
  return rows[0]?.email;
}

/** Whether the user has a SAML account (no password, no API keys: spec 1 §6). */
export async function hasSamlAccount(db: Db, userId: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM saml_account WHERE belongs_to__user = $1 LIMIT 1', [userId]);
  return rowCount > 0;
}

export async function insertSamlAccount(db: Db, row: { user: number; identityProvider: number; remoteId: string; displayName: string | null }): Promise<void> {
  await db.query(
    `INSERT INTO saml_account (belongs_to__user, was_generated_by__identity_provider, remote_id, display_name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (was_generated_by__identity_provider, remote_id) DO NOTHING`,
    [row.user, row.identityProvider, row.remoteId, row.displayName],
  );
}

/**
 * What the provider grants: membership (role member) of each organization it authorizes
 * (kept when the user already belongs, whatever their role), and the membership's default
 * team when it is one of that organization's teams.
 */
export async function grantProviderAccess(db: Db, userId: number, identityProvider: number): Promise<void> {
  await db.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT $1, m.organization, r.id
       FROM identity_provider_membership m, organization_membership_role r
      WHERE m.is_authorized_by__identity_provider = $2 AND r.name = 'member'
     ON CONFLICT DO NOTHING`,
    [userId, identityProvider],
  );
  await db.query(
    `INSERT INTO team_membership ("user", is_member_of__team)
     SELECT $1, t.id
       FROM identity_provider_membership m JOIN team t ON t.id = m.grants_access_to__team AND t.belongs_to__organization = m.organization
      WHERE m.is_authorized_by__identity_provider = $2
     ON CONFLICT DO NOTHING`,
    [userId, identityProvider],
  );
}

export interface LoginCodeRow {
  kind: 'signon' | 'merge';
  identity_provider: number;
  user: number | null;
  remote_id: string;
  email: string;
  display_name: string | null;
}

export async function insertLoginCode(db: Db, codeHash: string, row: LoginCodeRow, expiresAt: Date, now: Date): Promise<void> {
  await db.query('DELETE FROM saml_login_code WHERE expires_at <= $1', [now]);
  await db.query(
    `INSERT INTO saml_login_code (code_hash, kind, identity_provider, "user", remote_id, email, display_name, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [codeHash, row.kind, row.identity_provider, row.user, row.remote_id, row.email, row.display_name, expiresAt],
  );
}

/** An unexpired code, locked for the caller's transaction. */
export async function lockLoginCode(db: Db, codeHash: string, now: Date): Promise<LoginCodeRow | undefined> {
  const { rows } = await db.query<LoginCodeRow>(
    `SELECT kind, identity_provider, "user", remote_id, email, display_name FROM saml_login_code
      WHERE code_hash = $1 AND expires_at > $2 FOR UPDATE`,
    [codeHash, now],
  );
  return rows[0];
}

export async function deleteLoginCode(db: Db, codeHash: string): Promise<void> {
  await db.query('DELETE FROM saml_login_code WHERE code_hash = $1', [codeHash]);
}

/** Whether the user signs in only through SAML: a SAML account and no password (a merged account keeps its password). */
export async function isSamlOnlyUser(db: Db, userId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM "user" u WHERE u.id = $1 AND u.password IS NULL AND EXISTS (SELECT 1 FROM saml_account s WHERE s.belongs_to__user = u.id)`,
    [userId],
  );
  return rowCount > 0;
}
