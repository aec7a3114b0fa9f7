import type { ResourceDef } from '../types.js';

export const ACCOUNT_TYPES = ['personal', 'professional'] as const;
export const PLATFORM_ROLES = ['support_agent', 'administrator'] as const;

export const actor = {
  name: 'actor',
  fields: [{ name: 'id', type: 'Serial' }],
  reverse: [
    { name: 'api_key', resource: 'api_key', via: 'is_of__actor' },
    // What the actor is (dialect: `actor/any(a: a/is_of__application/any(…))`); at most one
    // of the three has a row.
    { name: 'is_of__user', resource: 'user', via: 'actor' },
    { name: 'is_of__application', resource: 'application', via: 'actor' },
    { name: 'is_of__device', resource: 'device', via: 'actor' },
  ],
} as const satisfies ResourceDef;

export const user = {
  name: 'user',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'actor', type: 'ForeignKey', references: 'actor', required: true, writable: 'never' },
    { name: 'username', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    { name: 'email', type: 'Short Text', required: true, writable: 'never', maxLength: 255, private: true },
    { name: 'password', type: 'Text', secret: true },
    { name: 'has_password_set', type: 'Boolean', required: true, default: 'false', writable: 'never' },
    { name: 'first_name', type: 'Short Text', maxLength: 255 },
    { name: 'last_name', type: 'Short Text', maxLength: 255 },
    { name: 'company', type: 'Short Text', maxLength: 255 },
    { name: 'account_type', type: 'Short Text', enum: ACCOUNT_TYPES, private: true },
    { name: 'has_disabled_newsletter', type: 'Boolean', required: true, default: 'false', private: true },
    { name: 'has_been_sent_verification_email', type: 'Boolean', required: true, default: 'false', private: true },
    { name: 'is_verified', type: 'Boolean', required: true, default: 'false', writable: 'never', private: true },
    { name: 'platform_role', type: 'Short Text', enum: PLATFORM_ROLES, writable: 'never', private: true },
    // Appearance preference (spec 1 §2, §3): the apps feature flag — shows the Apps section
    // (Alpha) and the apps sub-pages of teams and members.
    { name: 'displays_apps', type: 'Boolean', required: true, default: 'false', private: true },
    // Appearance preferences (spec 1 §2, §3): the app bar's colour (#rrggbb, null = the
    // theme's) and the navigation stripes of staging deployments.
    { name: 'header_color', type: 'Short Text', maxLength: 255, private: true },
    { name: 'shows_navigation_stripes', type: 'Boolean', required: true, default: 'false', private: true },
    // Tokens issued before this instant are rejected ("log out from other sessions").
    { name: 'tokens_valid_after', type: 'Date Time', secret: true },
  ],
  reverse: [
    { name: 'organization_membership', resource: 'organization_membership', via: 'user' },
    { name: 'user_application_membership', resource: 'user_application_membership', via: 'user' },
    { name: 'team_membership', resource: 'team_membership', via: 'user' },
    { name: 'owns__saml_account', resource: 'saml_account', via: 'belongs_to__user' },
    { name: 'owns__social_service_account', resource: 'social_service_account', via: 'belongs_to__user' },
  ],
  alternateKeys: [['username']],
  uniqueCaseInsensitive: [['username'], ['email']],
  indexes: [['actor']],
} as const satisfies ResourceDef;

export const api_key = {
  name: 'api_key',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    // sha256 of the key; the key itself is shown once at creation and never stored.
    { name: 'key', type: 'Short Text', required: true, secret: true },
    { name: 'name', type: 'Short Text', maxLength: 255 },
    { name: 'description', type: 'Text', maxLength: 10000 },
    { name: 'expiry_date', type: 'Date Time' },
    { name: 'is_of__actor', type: 'ForeignKey', references: 'actor', required: true, writable: 'never', onDelete: 'cascade' },
  ],
  unique: [['key']],
  indexes: [['is_of__actor']],
} as const satisfies ResourceDef;
