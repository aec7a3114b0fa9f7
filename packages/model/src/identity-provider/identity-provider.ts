/**
 * Identity providers (spec 1 §5, §7, §8): the SSO identifier, entry point and certificate
 * rules, the certificate's stored form, the error messages, and who administers a provider.
 * Pure, shared by the server (which enforces them) and the dashboard (which mirrors them).
 */

export const SSO_IDENTIFIER_MIN_LENGTH = 3;
export const SSO_IDENTIFIER_MAX_LENGTH = 255;
/** Lowercase letters, digits, underscore and hyphen (spec 1 §5). */
export const SSO_IDENTIFIER_PATTERN = /^[a-z0-9_-]+$/;
/** Metadata upload: XML only, at most this many bytes (spec 1 §5). */
export const IDP_METADATA_MAX_BYTES = 1_000_000;
export const IDP_ENTRY_POINT_MAX_LENGTH = 2048;
export const IDP_ISSUER_MAX_LENGTH = 2048;
export const IDP_CERTIFICATE_MAX_LENGTH = 20000;

export const CERTIFICATE_BEGIN = '-----BEGIN CERTIFICATE-----';
export const CERTIFICATE_END = '-----END CERTIFICATE-----';
/** PEM's line width: the stored certificate body is wrapped at this many characters. */
export const CERTIFICATE_LINE_LENGTH = 64;

/** The spec 1 §8 identity-provider errors: key → the message a user reads. */
export const IDP_MESSAGES = {
  invalid_id_passed_in_url: 'The identity provider id in the address is not valid.',
  no_idp_found: 'No identity provider was found.',
  unauthorized_view_idp: "Single sign-on is available on plans that include SAML. Upgrade the organization's plan.",
  idp_must_have_at_least_one_org: 'An identity provider must keep at least one organization.',
  cannot_interact_not_an_admin_of_this_idp:
    'Only an administrator of every organization this identity provider authorizes can change it.',
  invalid_url: 'The entry point must be a valid http or https URL.',
  invalid_certificate_format: `The certificate must begin with ${CERTIFICATE_BEGIN} and end with ${CERTIFICATE_END}, each once.`,
  sso_identifier_contains_invalid_characters: 'The SSO identifier may only contain lowercase letters, digits, underscores and hyphens.',
  failed_to_parse_saml_metadata: 'The SAML metadata could not be read. Upload the XML metadata file from your identity provider.',
  sso_identifier_required: 'The SSO identifier is required.',
  sso_identifier_too_short: `The SSO identifier must be at least ${SSO_IDENTIFIER_MIN_LENGTH} characters long.`,
  sso_identifier_too_long: `The SSO identifier must be at most ${SSO_IDENTIFIER_MAX_LENGTH} characters long.`,
  sso_identifier_taken: 'This SSO identifier is already used',
  entry_point_required: 'The entry point is required.',
  issuer_required: 'The issuer is required.',
  certificate_required: 'The certificate is required.',
  metadata_too_large: `The metadata file must be at most ${IDP_METADATA_MAX_BYTES.toLocaleString('en-US')} bytes.`,
  metadata_not_xml: 'The metadata file must be XML.',
  team_not_in_organization: "The team must belong to the membership's organization.",
} as const;

export type IdpMessageKey = keyof typeof IDP_MESSAGES;

/** Guidance appended to the blocked-removal message (spec 1 §8). */
export const IDP_REVOKE_GUIDANCE =
  "Revoke them first through the SDK, e.g. sdk.pine.delete({ resource: 'saml_account', id }) for each SAML account of this identity provider.";

/** Removal of a provider is refused while it has SAML accounts (spec 1 §8). */
export function IDP_BLOCKED_BY_SAML_ACCOUNTS(count: number): string {
  return `This action is blocked as the identity provider contains ${count} SAML account(s). ${IDP_REVOKE_GUIDANCE}`;
}

/** The first rule an SSO identifier breaks, or undefined. */
export function ssoIdentifierProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return IDP_MESSAGES.sso_identifier_required;
  if (value.length < SSO_IDENTIFIER_MIN_LENGTH) return IDP_MESSAGES.sso_identifier_too_short;
  if (value.length > SSO_IDENTIFIER_MAX_LENGTH) return IDP_MESSAGES.sso_identifier_too_long;
  if (!SSO_IDENTIFIER_PATTERN.test(value)) return IDP_MESSAGES.sso_identifier_contains_invalid_characters;
  return undefined;
}

/** An absolute http or https URL (with a host). */
export function isValidEntryPoint(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > IDP_ENTRY_POINT_MAX_LENGTH || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export function entryPointProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return IDP_MESSAGES.entry_point_required;
  return isValidEntryPoint(value.trim()) ? undefined : IDP_MESSAGES.invalid_url;
}

export function issuerProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return IDP_MESSAGES.issuer_required;
  if (value.length > IDP_ISSUER_MAX_LENGTH) return `The issuer must be at most ${IDP_ISSUER_MAX_LENGTH} characters long.`;
  return undefined;
}

function countOf(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/**
 * The certificate's stored form: the markers on their own lines and the base64 body wrapped
 * at 64 characters, or null when the text is not one certificate block — it must begin with
 * the BEGIN marker and end with the END marker (surrounding whitespace aside), each exactly
 * once, with a non-empty base64 body between them. A bare base64 body (no markers) is NOT
 * accepted: the spec requires the markers.
 */
export function normalizeCertificate(value: string): string | null {
  const text = value.trim();
  if (!text.startsWith(CERTIFICATE_BEGIN) || !text.endsWith(CERTIFICATE_END)) return null;
  if (countOf(text, CERTIFICATE_BEGIN) !== 1 || countOf(text, CERTIFICATE_END) !== 1) return null;
  const body = text.slice(CERTIFICATE_BEGIN.length, text.length - CERTIFICATE_END.length).replace(/\s+/g, '');
  if (body === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) return null;
  const lines: string[] = [];
  for (let i = 0; i < body.length; i += CERTIFICATE_LINE_LENGTH) lines.push(body.slice(i, i + CERTIFICATE_LINE_LENGTH));
  return [CERTIFICATE_BEGIN, ...lines, CERTIFICATE_END].join('\n');
}

export function isValidCertificate(value: unknown): boolean {
  return typeof value === 'string' && normalizeCertificate(value) !== null;
}

export function certificateProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return IDP_MESSAGES.certificate_required;
  if (value.length > IDP_CERTIFICATE_MAX_LENGTH) return IDP_MESSAGES.invalid_certificate_format;
  return normalizeCertificate(value) === null ? IDP_MESSAGES.invalid_certificate_format : undefined;
}

export interface IdentityProviderInput {
  sso_identifier?: unknown;
  entry_point?: unknown;
  issuer?: unknown;
  certificate?: unknown;
}

/**
 * The first problem of the given fields (only those present when `partial`, as a PATCH sends;
 * all four otherwise, as a create or the dashboard's submit needs), with the field it is about.
 */
export function identityProviderProblem(
  input: IdentityProviderInput,
  partial = false,
): { field: keyof IdentityProviderInput; message: string } | undefined {
  const checks: [keyof IdentityProviderInput, (v: unknown) => string | undefined][] = [
    ['sso_identifier', ssoIdentifierProblem],
    ['entry_point', entryPointProblem],
    ['issuer', issuerProblem],
    ['certificate', certificateProblem],
  ];
  for (const [field, check] of checks) {
    if (partial && input[field] === undefined) continue;
    const message = check(input[field]);
    if (message) return { field, message };
  }
  return undefined;
}

/**
 * A user administers an identity provider when they administer EVERY organization it
 * authorizes (so an administrator of one organization cannot repoint another's single
 * sign-on). A provider with no organizations is administered by nobody.
 */
export function canAdministerIdentityProvider(
  idpOrganizationIds: readonly number[],
  adminOrganizationIds: readonly number[],
): boolean {
  if (idpOrganizationIds.length === 0) return false;
  const admin = new Set(adminOrganizationIds);
  return idpOrganizationIds.every((id) => admin.has(id));
}

/** A user may read a provider (and its memberships) when they administer ANY of its organizations. */
export function canReadIdentityProvider(idpOrganizationIds: readonly number[], adminOrganizationIds: readonly number[]): boolean {
  const admin = new Set(adminOrganizationIds);
  return idpOrganizationIds.some((id) => admin.has(id));
}
