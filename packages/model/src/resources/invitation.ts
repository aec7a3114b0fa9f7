import type { ResourceDef } from '../types.js';

/**
 * Invitations by e-mail (spec 1 §3–§5, §7; dialect §2.5, §3). The resource names are the
 * ones balena-sdk 23 POSTs to (`invitee__is_invited_to__organization|application`). As in
 * balena, `invitee` is a foreign key to an `invitee` row holding the `email` (balena-sdk
 * reads it with `$expand: {invitee: {$select: 'email'}}`); the POST body names the invitee
 * by e-mail, which the server turns into that row. The accept token is mailed once; only
 * its SHA-256 is stored (`token_hash`, secret). Invitations expire after INVITATION_TTL_DAYS.
 */

/** Days an invitation stays valid (docs/decisions.md). */
export const INVITATION_TTL_DAYS = 7;
/** Longest personal message an invitation may carry. */
export const INVITATION_MESSAGE_MAX_LENGTH = 2000;
/** Longest invitee e-mail address (RFC 5321 path limit). */
export const INVITEE_MAX_LENGTH = 254;

/** Someone invited by e-mail (one row per address, compared case-insensitively). */
export const invitee = {
  name: 'invitee',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'email', type: 'Short Text', required: true, writable: 'never', maxLength: INVITEE_MAX_LENGTH },
  ],
  reverse: [
    { name: 'invitee__is_invited_to__organization', resource: 'invitee__is_invited_to__organization', via: 'invitee' },
    { name: 'invitee__is_invited_to__application', resource: 'invitee__is_invited_to__application', via: 'invitee' },
  ],
  uniqueCaseInsensitive: [['email']],
} as const satisfies ResourceDef;

const common = [
  { name: 'id', type: 'Serial' },
  { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
  // POSTed as the e-mail address (a hook finds or makes the invitee row); read as `{__id}`.
  { name: 'invitee', type: 'ForeignKey', references: 'invitee', required: true, writable: 'create', onDelete: 'cascade' },
  { name: 'message', type: 'Text', writable: 'create', maxLength: INVITATION_MESSAGE_MAX_LENGTH },
  { name: 'is_created_by__user', type: 'ForeignKey', references: 'user', writable: 'never', onDelete: 'set null' },
  { name: 'token_hash', type: 'Short Text', required: true, secret: true, writable: 'never' },
  { name: 'expiry', type: 'Date Time', required: true, writable: 'never' },
] as const satisfies ResourceDef['fields'];

export const invitee__is_invited_to__organization = {
  name: 'invitee__is_invited_to__organization',
  fields: [
    ...common,
    { name: 'is_invited_to__organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'create', onDelete: 'cascade' },
    // balena: an organization invitation without a role invites a member.
    { name: 'organization_membership_role', type: 'ForeignKey', references: 'organization_membership_role', required: true, writable: 'create', defaultReference: { name: 'member' } },
  ],
  unique: [['token_hash']],
  indexes: [['is_invited_to__organization']],
} as const satisfies ResourceDef;

export const invitee__is_invited_to__application = {
  name: 'invitee__is_invited_to__application',
  fields: [
    ...common,
    { name: 'is_invited_to__application', type: 'ForeignKey', references: 'application', required: true, writable: 'create', onDelete: 'cascade' },
    // balena: a fleet invitation without a role invites a developer.
    { name: 'application_membership_role', type: 'ForeignKey', references: 'application_membership_role', required: true, writable: 'create', defaultReference: { name: 'developer' } },
  ],
  unique: [['token_hash']],
  indexes: [['is_invited_to__application']],
} as const satisfies ResourceDef;
