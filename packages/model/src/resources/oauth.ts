import type { ResourceDef } from '../types.js';

/**
 * An application that may ask a user to log in through the dashboard (spec 1 §2
 * `/login/oauth/{clientId}`, §3): platform administrators register it; any signed-in user
 * reads it (the consent page shows its name and description).
 */
export const oauth_application = {
  name: 'oauth_application',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'client_id', type: 'Short Text', required: true, writable: 'create', maxLength: 255 },
    { name: 'redirect_uri', type: 'Text', required: true, maxLength: 2000 },
    { name: 'name', type: 'Short Text', required: true, maxLength: 255 },
    { name: 'description', type: 'Text', maxLength: 10000 },
  ],
  reverse: [{ name: 'oauth_application_authorization', resource: 'oauth_application_authorization', via: 'is_for__oauth_application' }],
  alternateKeys: [['client_id']],
  unique: [['client_id']],
} as const satisfies ResourceDef;

/** A user's consent to an OAuth application; written by POST /oauth/authorize only. */
export const oauth_application_authorization = {
  name: 'oauth_application_authorization',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'belongs_to__user', type: 'ForeignKey', references: 'user', required: true, writable: 'never', onDelete: 'cascade' },
    {
      name: 'is_for__oauth_application',
      type: 'ForeignKey',
      references: 'oauth_application',
      required: true,
      writable: 'never',
      onDelete: 'cascade',
    },
  ],
  unique: [['belongs_to__user', 'is_for__oauth_application']],
  indexes: [['is_for__oauth_application']],
} as const satisfies ResourceDef;
