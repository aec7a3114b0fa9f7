import type { ResourceDef } from '../types.js';

/**
 * A user's SSH public key (spec 1 §3 "key"): id, title, public_key, created_at. The dialect
 * and balena-sdk (`sdk.models.key`) name it `user__has__public_key`; `key` is accepted too.
 * Title and key rules (trimmed, mandatory, the key pattern) are a hook (features/ssh-keys).
 */
export const user__has__public_key = {
  name: 'user__has__public_key',
  synonyms: ['key'],
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'user', type: 'ForeignKey', references: 'user', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'title', type: 'Short Text', required: true, writable: 'create', maxLength: 255 },
    { name: 'public_key', type: 'Text', required: true, writable: 'create', maxLength: 16384 },
  ],
  indexes: [['user']],
} as const satisfies ResourceDef;

/**
 * A social login linked to a user (spec 1 §3): display name and provider. Read-only through
 * the data API; social login itself is a later issue, which will write these rows.
 */
export const social_service_account = {
  name: 'social_service_account',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'belongs_to__user', type: 'ForeignKey', references: 'user', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'provider', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    { name: 'display_name', type: 'Short Text', writable: 'never', maxLength: 255 },
    { name: 'remote_id', type: 'Short Text', required: true, writable: 'never', maxLength: 255, secret: true },
  ],
  unique: [['provider', 'remote_id']],
  indexes: [['belongs_to__user']],
} as const satisfies ResourceDef;
