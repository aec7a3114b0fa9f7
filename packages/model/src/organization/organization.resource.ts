import type { ResourceDef } from '../types.js';

export const ORGANIZATION_ROLES = ['administrator', 'member'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/**
 * The refusal of a change that would leave an organization without an administrator, in
 * balena's words (balena-sdk users match on them); the dashboard shows the spec's text for it.
 */
export const LAST_ADMINISTRATOR_RULE =
  'It is necessary that each organization that is active, includes at least one organization membership that has an organization membership role that has a name (Auth) that is equal to "administrator".';

export const organization = {
  name: 'organization',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'name', type: 'Short Text', required: true, maxLength: 100 },
    // lowercase [a-z0-9_]; derived from the name when not given.
    { name: 'handle', type: 'Short Text', required: true, writable: 'create', maxLength: 100 },
    // data: URL of a png or jpeg logo (at most 1,000,000 bytes decoded).
    { name: 'logo_image', type: 'Text' },
    { name: 'is_frozen', type: 'Boolean', required: true, default: 'false', writable: 'never' },
    { name: 'is_using__billing_version', type: 'Short Text', writable: 'never' },
    // Billing (spec 3 §3): the legal name on invoices (patched before payment setup), and
    // since when an invoice has been past due (the daily past-due job; frozen at 60 days).
    { name: 'company_name', type: 'Text', maxLength: 200 },
    { name: 'has_past_due_invoice_since__date', type: 'Date Time', writable: 'never' },
  ],
  reverse: [
    { name: 'organization_membership', resource: 'organization_membership', via: 'is_member_of__organization' },
    { name: 'application', resource: 'application', via: 'organization' },
    { name: 'owns__team', resource: 'team', via: 'belongs_to__organization' },
    { name: 'subscription', resource: 'subscription', via: 'is_for__organization' },
    { name: 'owns__credit_bundle', resource: 'credit_bundle', via: 'belongs_to__organization' },
    { name: 'organization_credit_notification', resource: 'organization_credit_notification', via: 'organization' },
    { name: 'identity_provider_membership', resource: 'identity_provider_membership', via: 'organization' },
    { name: 'organization__is_authorized_by__identity_provider', resource: 'identity_provider_membership', via: 'organization' },
  ],
  alternateKeys: [['handle']],
  unique: [['handle']],
  uniqueCaseInsensitive: [['name']],
} as const satisfies ResourceDef;

export const organization_membership_role = {
  name: 'organization_membership_role',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'name', type: 'Short Text', required: true, writable: 'never', enum: ORGANIZATION_ROLES },
  ],
  alternateKeys: [['name']],
  unique: [['name']],
} as const satisfies ResourceDef;

export const organization_membership = {
  name: 'organization_membership',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'user', type: 'ForeignKey', references: 'user', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'is_member_of__organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'organization_membership_role', type: 'ForeignKey', references: 'organization_membership_role', required: true },
    { name: 'effective_seat_role', type: 'Short Text', writable: 'never' },
  ],
  reverse: [{ name: 'organization_membership_tag', resource: 'organization_membership_tag', via: 'organization_membership' }],
  unique: [['user', 'is_member_of__organization']],
  indexes: [['is_member_of__organization']],
} as const satisfies ResourceDef;

/**
 * Tags on a member of an organization (balena's `organization_membership_tag`, balena-sdk
 * `organization.membership.tags`): one value per (membership, tag_key), the tag key rules
 * of every tag table.
 */
export const organization_membership_tag = {
  name: 'organization_membership_tag',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'organization_membership', type: 'ForeignKey', references: 'organization_membership', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'tag_key', type: 'Short Text', required: true, writable: 'create', maxLength: 100 },
    { name: 'value', type: 'Text', required: true, maxLength: 10000 },
  ],
  unique: [['organization_membership', 'tag_key']],
} as const satisfies ResourceDef;
