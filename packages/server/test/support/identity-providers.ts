import type { Db } from '../../src/infra/db/db.js';

/**
 * Inserts an identity provider and its organization memberships directly (SQL), so SAML
 * sign-in tests do not depend on the identity-provider API's rules.
 */
export async function insertIdentityProvider(
  db: Db,
  provider: { ssoIdentifier: string; entryPoint: string; issuer: string; certificate: string; requiresSignedAuthnResponse?: boolean },
  memberships: { organization: number; team?: number | null }[] = [],
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO identity_provider (sso_identifier, entry_point, issuer, certificate, requires_signed_authn_response)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [provider.ssoIdentifier, provider.entryPoint, provider.issuer, provider.certificate, provider.requiresSignedAuthnResponse ?? false],
  );
  const id = rows[0]!.id;
  for (const membership of memberships) {
    await db.query(
      `INSERT INTO identity_provider_membership (organization, is_authorized_by__identity_provider, grants_access_to__team) VALUES ($1, $2, $3)`,
      [membership.organization, id, membership.team ?? null],
    );
  }
  return id;
}

/** A team of the organization, inserted directly. */
export async function insertTeam(db: Db, organization: number, name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>('INSERT INTO team (name, belongs_to__organization) VALUES ($1, $2) RETURNING id', [name, organization]);
  return rows[0]!.id;
}
