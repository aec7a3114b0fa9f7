import { createHash } from 'node:crypto';
import { isValidEmail } from '@flotilla/model';
import type { CacheProvider, CacheItem, SAML } from '@node-saml/node-saml';
import { alphanumericSecret } from '../../infra/auth/secret.js';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import { createUser } from '../users/index.js';
import {
  authnRequestExpiry,
  deleteAuthnRequest,
  deleteLoginCode,
  findIdentityProvider,
  findSamlAccountUser,
  findUserByEmail,
  findUserEmail,
  grantProviderAccess,
  insertLoginCode,
  insertSamlAccount,
  lockLoginCode,
  recordAssertion,
  saveAuthnRequest,
  type IdentityProviderRow,
} from './saml.repository.js';
import { assertionIdentity, profileIdentity, responseProblem } from './saml-response-checks.js';

/** How long an AuthnRequest we issued can be answered. */
export const AUTHN_REQUEST_LIFETIME_MS = 10 * 60_000;
/** How long a login code (signon or merge) can be finalized. */
export const LOGIN_CODE_LIFETIME_MS = 2 * 60_000;
/** Clock skew accepted on NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** An assertion without NotOnOrAfter is remembered this long (replay protection). */
const ASSERTION_MEMORY_MS = 60 * 60_000;

export const UNKNOWN_SSO_IDENTIFIER = 'Unknown SSO identifier';
export const INVALID_LOGIN_CODE = 'The SAML login code is invalid or has expired: sign in again';
export const MERGE_REQUIRES_LOGIN = 'Sign in to the existing account to link it to your SAML account';
export const EMAIL_MISMATCH = "Email mismatch: the signed-in account's email is not the one your identity provider gave";

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Our service provider's URLs for a provider (the entity id is also the audience). */
export function serviceProviderUrls(publicUrl: string, ssoIdentifier: string): { entityId: string; acsUrl: string } {
  const base = `${publicUrl.replace(/\/+$/, '')}/auth/saml/${encodeURIComponent(ssoIdentifier)}`;
  return { entityId: base, acsUrl: `${base}/callback` };
}

/** node-saml's InResponseTo store, in PostgreSQL (saml_authn_request) so every server process shares it. */
class AuthnRequestStore implements CacheProvider {
  constructor(
    private readonly db: Db,
    private readonly identityProvider: number,
    private readonly now: () => number,
  ) {}
  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    const createdAt = this.now();
    await saveAuthnRequest(this.db, key, this.identityProvider, new Date(createdAt + AUTHN_REQUEST_LIFETIME_MS), new Date(createdAt));
    return { value, createdAt };
  }
  /** node-saml reads the value as the request's creation time. */
  async getAsync(key: string): Promise<string | null> {
    const expiresAt = await authnRequestExpiry(this.db, key, this.identityProvider, new Date(this.now()));
    return expiresAt ? new Date(expiresAt.getTime() - AUTHN_REQUEST_LIFETIME_MS).toISOString() : null;
  }
  async removeAsync(key: string | null): Promise<string | null> {
    if (key === null) return null;
    return (await deleteAuthnRequest(this.db, key, this.identityProvider)) ? key : null;
  }
}

/**
 * node-saml and its XML stack load on the first SAML request, not at start (they were about a
 * tenth of the server's start-up, and most installations have no identity provider).
 */
const loadNodeSaml = () => import('@node-saml/node-saml');

async function samlFor(db: Db, provider: IdentityProviderRow, publicUrl: string, now: () => number): Promise<SAML> {
  const { entityId, acsUrl } = serviceProviderUrls(publicUrl, provider.sso_identifier);
  const { SAML, ValidateInResponseTo } = await loadNodeSaml();
  return new SAML({
    entryPoint: provider.entry_point,
    issuer: entityId,
    audience: entityId,
    callbackUrl: acsUrl,
    idpCert: provider.certificate,
    idpIssuer: provider.issuer,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: provider.requires_signed_authn_response,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: AUTHN_REQUEST_LIFETIME_MS,
    cacheProvider: new AuthnRequestStore(db, provider.id, now),
    // Let the provider choose the NameID format and the authentication method.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });
}

async function providerOf(db: Db, ssoIdentifier: string): Promise<IdentityProviderRow> {
  const provider = await findIdentityProvider(db, ssoIdentifier);
  if (!provider) throw new NotFoundError(UNKNOWN_SSO_IDENTIFIER);
  return provider;
}

/** The URL of the provider's sign-in page carrying a new AuthnRequest (HTTP-Redirect binding). */
export async function authorizeUrl(db: Db, ssoIdentifier: string, publicUrl: string, now: () => number): Promise<string> {
  const provider = await providerOf(db, ssoIdentifier);
  return (await samlFor(db, provider, publicUrl, now)).getAuthorizeUrlAsync('', undefined, {});
}

/**
 * Our service provider's metadata for a provider (what its administrator gives the identity
 * provider): entity id, assertion consumer service (HTTP-POST), signed assertions wanted.
 */
export async function serviceProviderMetadata(db: Db, ssoIdentifier: string, publicUrl: string): Promise<string> {
  const provider = await providerOf(db, ssoIdentifier);
  const { entityId, acsUrl } = serviceProviderUrls(publicUrl, provider.sso_identifier);
  const { generateServiceProviderMetadata } = await loadNodeSaml();
  return generateServiceProviderMetadata({ issuer: entityId, callbackUrl: acsUrl, wantAssertionsSigned: true, identifierFormat: null });
}

/** Where the ACS sends the browser: the dashboard's callback pages (spec 1 §2). */
export type SignInOutcome =
  | { kind: 'signon'; code: string }
  | { kind: 'merge'; code: string; email: string }
  | { kind: 'failed'; reason: string };

/**
 * Validates a SAMLResponse posted to the provider's assertion consumer service and signs the
 * person in: their SAML account's user; else, when a user has the asserted e-mail, a merge
 * code (they must prove they own that account); else a new user (no password) with a SAML
 * account, in the provider's organizations and default teams (just in time). Never throws
 * for a bad response: the reason is answered for the log, the browser learns only "failed".
 */
export async function consumeResponse(
  db: Db,
  input: { ssoIdentifier: string; samlResponse: string; publicUrl: string },
  now: () => number,
): Promise<SignInOutcome> {
  const provider = await findIdentityProvider(db, input.ssoIdentifier);
  if (!provider) return { kind: 'failed', reason: UNKNOWN_SSO_IDENTIFIER };
  const { acsUrl } = serviceProviderUrls(input.publicUrl, provider.sso_identifier);
  const xml = Buffer.from(input.samlResponse, 'base64').toString('utf8');
  const problem = await responseProblem(xml, { acsUrl, issuer: provider.issuer });
  if (problem) return { kind: 'failed', reason: problem };
  let profile;
  try {
    ({ profile } = await (await samlFor(db, provider, input.publicUrl, now)).validatePostResponseAsync({ SAMLResponse: input.samlResponse }));
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  const assertionXml = profile?.getAssertionXml?.();
  if (!profile || !assertionXml) return { kind: 'failed', reason: 'no assertion' };
  const remoteId = profile.nameID;
  if (!remoteId || remoteId.length > 255 || remoteId.includes('\u0000')) return { kind: 'failed', reason: 'the NameID is missing, longer than 255 characters or holds NUL' };
  const identity = profileIdentity(profile, remoteId);
  const email = identity.email;
  if (!email || email.length > 255 || !isValidEmail(email)) return { kind: 'failed', reason: 'the assertion carries no valid e-mail address' };
  const displayName = identity.displayName?.split('\u0000').join('');
  const { id: assertionId, notOnOrAfter } = await assertionIdentity(assertionXml);
  const at = now();
  const code = alphanumericSecret(256);
  return db.tx(async (tx): Promise<SignInOutcome> => {
    const remembered = notOnOrAfter ? new Date(notOnOrAfter.getTime() + SAML_CLOCK_SKEW_MS) : new Date(at + ASSERTION_MEMORY_MS);
    if (!(await recordAssertion(tx, provider.id, assertionId, remembered, new Date(at)))) {
      return { kind: 'failed', reason: `assertion ${assertionId} was already used (replay)` };
    }
    const base = { identity_provider: provider.id, remote_id: remoteId, email, display_name: displayName?.slice(0, 255) ?? null };
    const expiresAt = new Date(at + LOGIN_CODE_LIFETIME_MS);
    let userId = await findSamlAccountUser(tx, provider.id, remoteId);
    if (userId === undefined) {
      const existing = await findUserByEmail(tx, email);
      if (existing) {
        await insertLoginCode(tx, sha256(code), { ...base, kind: 'merge', user: null }, expiresAt, new Date(at));
        return { kind: 'merge', code, email: existing.email };
      }
      // Just in time: the identity provider vouches for the address.
      const created = await createUser(tx, { email, password: null, isVerified: true });
      userId = created.id;
      await insertSamlAccount(tx, { user: userId, identityProvider: provider.id, remoteId, displayName: base.display_name });
      await grantProviderAccess(tx, userId, provider.id);
    }
    await insertLoginCode(tx, sha256(code), { ...base, kind: 'signon', user: userId }, expiresAt, new Date(at));
    return { kind: 'signon', code };
  });
}

/**
 * `POST /auth/saml/finalize {code, jwt}`: the user a code signs in. A signon code names its
 * user. A merge code needs `jwtUserId`, the signed-in user of the existing account with the
 * asserted e-mail (compared case-insensitively): the SAML account is linked to them and the
 * provider's organizations and team granted. The code is used up only on success.
 */
export async function finalize(db: Db, input: { code: string; jwtUserId: number | null }, now: () => number): Promise<number> {
  const hash = sha256(input.code);
  return db.tx(async (tx) => {
    const row = await lockLoginCode(tx, hash, new Date(now()));
    if (!row) throw new BadRequestError(INVALID_LOGIN_CODE);
    if (row.kind === 'signon') {
      await deleteLoginCode(tx, hash);
      return row.user!;
    }
    if (input.jwtUserId === null) throw new UnauthorizedError(MERGE_REQUIRES_LOGIN);
    const email = await findUserEmail(tx, input.jwtUserId);
    if (email === undefined || email.toLowerCase() !== row.email.toLowerCase()) throw new BadRequestError(EMAIL_MISMATCH);
    await insertSamlAccount(tx, { user: input.jwtUserId, identityProvider: row.identity_provider, remoteId: row.remote_id, displayName: row.display_name });
    // The remote id may already be linked (a second merge): it must be this user's.
    if ((await findSamlAccountUser(tx, row.identity_provider, row.remote_id)) !== input.jwtUserId) throw new BadRequestError(EMAIL_MISMATCH);
    await grantProviderAccess(tx, input.jwtUserId, row.identity_provider);
    await deleteLoginCode(tx, hash);
    return input.jwtUserId;
  });
}
