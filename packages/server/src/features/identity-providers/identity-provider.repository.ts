import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

// The identity-providers feature's SQL: who administers which organizations, the providers'
// organizations, their SAML accounts, and the checks the hooks make.

type OrgId = Row<'organization'>['id'];
type ProviderId = Row<'identity_provider'>['id'];

/** The organizations (of `among`, or all) whose administrator the actor's user is. */
export async function administeredOrganizationIds(db: Db, actorId: number | null, among?: readonly OrgId[]): Promise<OrgId[]> {
  if (actorId === null) return [];
  const { rows } = await db.query<{ id: OrgId }>(
    `SELECT m.is_member_of__organization AS id
       FROM organization_membership m
       JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
       JOIN "user" u ON u.id = m."user"
      WHERE u.actor = $1 AND ($2::int[] IS NULL OR m.is_member_of__organization = ANY($2::int[]))`,
    [actorId, among ?? null],
  );
  return rows.map((r) => r.id);
}

/** At most this many organizations in the eligible-organizations answer (a bounded response). */
export const ELIGIBLE_ORGANIZATIONS_MAX = 1000;

/** The organizations a user administers, by name (the eligible-organizations list; the first ELIGIBLE_ORGANIZATIONS_MAX). */
export async function administeredOrganizations(db: Db, userId: Row<'user'>['id']): Promise<Pick<Row<'organization'>, 'id' | 'name' | 'handle'>[]> {
  const { rows } = await db.query<Pick<Row<'organization'>, 'id' | 'name' | 'handle'>>(
    `SELECT o.id, o.name, o.handle
       FROM organization o
       JOIN organization_membership m ON m.is_member_of__organization = o.id
       JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
      WHERE m."user" = $1
      ORDER BY lower(o.name), o.id
      LIMIT ${ELIGIBLE_ORGANIZATIONS_MAX}`,
    [userId],
  );
  return rows;
}

/** Each provider's organizations (every provider of `providerIds` is a key), its rows locked for the write. */
export async function organizationsOfProviders(db: Db, providerIds: readonly ProviderId[]): Promise<Map<ProviderId, OrgId[]>> {
  const out = new Map<ProviderId, OrgId[]>(providerIds.map((id) => [id, []]));
  if (providerIds.length === 0) return out;
  await db.query('SELECT id FROM identity_provider WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [providerIds]);
  const { rows } = await db.query<{ provider: ProviderId; organization: OrgId }>(
    `SELECT is_authorized_by__identity_provider AS provider, organization
       FROM identity_provider_membership WHERE is_authorized_by__identity_provider = ANY($1::int[])`,
    [providerIds],
  );
  for (const r of rows) out.get(r.provider)?.push(r.organization);
  return out;
}

/** The providers of some memberships. */
export async function providersOfMemberships(db: Db, membershipIds: readonly number[]): Promise<ProviderId[]> {
  const { rows } = await db.query<{ id: ProviderId }>(
    'SELECT DISTINCT is_authorized_by__identity_provider AS id FROM identity_provider_membership WHERE id = ANY($1::int[])',
    [membershipIds],
  );
  return rows.map((r) => r.id);
}

/** The providers of some SAML accounts. */
export async function providersOfSamlAccounts(db: Db, accountIds: readonly number[]): Promise<ProviderId[]> {
  const { rows } = await db.query<{ id: ProviderId }>(
    'SELECT DISTINCT was_generated_by__identity_provider AS id FROM saml_account WHERE id = ANY($1::int[])',
    [accountIds],
  );
  return rows.map((r) => r.id);
}

/** The providers (of `providerIds`) that would keep no organization if the memberships `removed` went. */
export async function providersLeftWithoutOrganization(db: Db, providerIds: readonly ProviderId[], removed: readonly number[]): Promise<ProviderId[]> {
  const { rows } = await db.query<{ id: ProviderId }>(
    `SELECT p.id FROM identity_provider p
      WHERE p.id = ANY($1::int[])
        AND NOT EXISTS (SELECT 1 FROM identity_provider_membership m
                         WHERE m.is_authorized_by__identity_provider = p.id AND NOT (m.id = ANY($2::int[])))`,
    [providerIds, removed],
  );
  return rows.map((r) => r.id);
}

/** Whether a provider other than `except` has this SSO identifier. */
export async function ssoIdentifierTaken(db: Db, ssoIdentifier: string, except: readonly ProviderId[] = []): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM identity_provider WHERE sso_identifier = $1 AND NOT (id = ANY($2::int[]))', [ssoIdentifier, except]);
  return rowCount > 0;
}

/** The number of SAML accounts of these providers. */
export async function samlAccountCount(db: Db, providerIds: readonly ProviderId[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM saml_account WHERE was_generated_by__identity_provider = ANY($1::int[])', [
    providerIds,
  ]);
  return rows[0]?.n ?? 0;
}

/** Authorizes an organization by a provider (the first membership of a new provider). */
export async function insertMembership(db: Db, providerId: ProviderId, orgId: OrgId): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO identity_provider_membership (organization, is_authorized_by__identity_provider) VALUES ($1, $2) RETURNING id',
    [orgId, providerId],
  );
  return rows[0]!.id;
}

/** Whether some of these memberships are of an organization other than the team's (or there is no such team). */
export async function membershipsOutsideTeamOrganization(db: Db, membershipIds: readonly number[], teamId: Row<'team'>['id']): Promise<boolean> {
  const { rows } = await db.query<{ outside: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM identity_provider_membership m
                     WHERE m.id = ANY($1::int[])
                       AND m.organization IS DISTINCT FROM (SELECT belongs_to__organization FROM team WHERE id = $2)) AS outside`,
    [membershipIds, teamId],
  );
  return rows[0]?.outside ?? false;
}

/**
 * Removes the providers that authorize only organizations of `orgIds` (about to be deleted),
 * with their SAML accounts; their memberships go by cascade. Returns their ids.
 */
export async function deleteProvidersOnlyOf(db: Db, orgIds: readonly OrgId[]): Promise<ProviderId[]> {
  const { rows } = await db.query<{ id: ProviderId }>(
    `SELECT DISTINCT m.is_authorized_by__identity_provider AS id
       FROM identity_provider_membership m
      WHERE m.organization = ANY($1::int[])
        AND NOT EXISTS (SELECT 1 FROM identity_provider_membership o
                         WHERE o.is_authorized_by__identity_provider = m.is_authorized_by__identity_provider
                           AND NOT (o.organization = ANY($1::int[])))`,
    [orgIds],
  );
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return ids;
  await db.query('DELETE FROM saml_account WHERE was_generated_by__identity_provider = ANY($1::int[])', [ids]);
  await db.query('DELETE FROM identity_provider WHERE id = ANY($1::int[])', [ids]);
  return ids;
}
