import type { ResourceDef } from '../types.js';

/**
 * A SAML identity provider (spec 1 §3 "identity_provider", balena-sdk `IdentityProvider`):
 * where enterprise single sign-on sends users (`entry_point`), who it says it is (`issuer`)
 * and the certificate its signed assertions are checked against (PEM, wrapped at 64
 * characters). Administered by the administrators of the organizations it authorizes
 * (`identity_provider_membership`); the validation and access rules are hooks
 * (features/identity-providers), the sign-in itself features/saml.
 */
export const identity_provider = {
  name: 'identity_provider',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    // lowercase letters, digits, `_` and `-`, at least 3 characters; used in /saml/{ssoIdentifier}.
    { name: 'sso_identifier', type: 'Short Text', required: true, maxLength: 255 },
    { name: 'entry_point', type: 'Text', required: true, maxLength: 2048 },
    { name: 'issuer', type: 'Text', required: true, maxLength: 2048 },
    { name: 'certificate', type: 'Text', required: true, maxLength: 20000 },
    // Assertions are always required to be signed; this also requires the response envelope's signature.
    { name: 'requires_signed_authn_response', type: 'Boolean', required: true, default: 'false' },
  ],
  reverse: [
    { name: 'identity_provider_membership', resource: 'identity_provider_membership', via: 'is_authorized_by__identity_provider' },
    { name: 'organization__is_authorized_by__identity_provider', resource: 'identity_provider_membership', via: 'is_authorized_by__identity_provider' },
    { name: 'saml_account', resource: 'saml_account', via: 'was_generated_by__identity_provider' },
  ],
  alternateKeys: [['sso_identifier']],
  unique: [['sso_identifier']],
} as const satisfies ResourceDef;

/**
 * An organization an identity provider authorizes (spec 1 §3 "identity_provider_membership";
 * balena's fact type `organization is authorized by identity provider`), with the team new
 * single-sign-on users join (`grants_access_to__team`, null = none). Written as
 * `{organization, is_authorized_by__identity_provider}`; read also as `authorizes__organization`
 * and `identity_provider`, balena's names for the same two links.
 */
export const identity_provider_membership = {
  name: 'identity_provider_membership',
  synonyms: ['organization__is_authorized_by__identity_provider'],
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'create', onDelete: 'cascade' },
    {
      name: 'is_authorized_by__identity_provider',
      type: 'ForeignKey',
      references: 'identity_provider',
      required: true,
      writable: 'create',
      onDelete: 'cascade',
    },
    { name: 'grants_access_to__team', type: 'ForeignKey', references: 'team', onDelete: 'set null' },
    { name: 'authorizes__organization', type: 'ForeignKey', references: 'organization', writable: 'never', computed: '{row}."organization"' },
    {
      name: 'identity_provider',
      type: 'ForeignKey',
      references: 'identity_provider',
      writable: 'never',
      computed: '{row}."is_authorized_by__identity_provider"',
    },
  ],
  unique: [['organization', 'is_authorized_by__identity_provider']],
  indexes: [['is_authorized_by__identity_provider']],
} as const satisfies ResourceDef;

/**
 * A user account created (or linked) by a SAML sign-in (spec 1 §3 "saml_account"): the
 * identity provider's NameID for the user (`remote_id`). Written by the server only. A user
 * with a SAML account has no password and cannot create API keys (spec 1 §6).
 */
export const saml_account = {
  name: 'saml_account',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'belongs_to__user', type: 'ForeignKey', references: 'user', required: true, writable: 'never', onDelete: 'cascade' },
    {
      name: 'was_generated_by__identity_provider',
      type: 'ForeignKey',
      references: 'identity_provider',
      required: true,
      writable: 'never',
      onDelete: 'restrict',
    },
    { name: 'remote_id', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    { name: 'display_name', type: 'Short Text', writable: 'never', maxLength: 255 },
  ],
  unique: [['was_generated_by__identity_provider', 'remote_id']],
  indexes: [['belongs_to__user']],
} as const satisfies ResourceDef;
