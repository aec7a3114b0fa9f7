import type { ResourceDef } from '../types.js';

/**
 * The web terminal's audit trail (issue 15 item 2): one row per session the server opened
 * towards a device — who (`user` and `username`, `api_key` when the token was an API key),
 * which `device` and `target` ('host' or 'service:<name>'), `started_at`, `ended_at` (null
 * while open) and `end_reason`. Written by the server only (features/terminal); read-only
 * through the data API, for the administrators of the device's fleet and organization.
 */
export const terminal_session = {
  name: 'terminal_session',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'session', type: 'Short Text', required: true, writable: 'never' },
    { name: 'device', type: 'ForeignKey', references: 'device', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'user', type: 'ForeignKey', references: 'user', writable: 'never', onDelete: 'set null' },
    { name: 'username', type: 'Short Text', required: true, writable: 'never' },
    { name: 'api_key', type: 'ForeignKey', references: 'api_key', writable: 'never', onDelete: 'set null' },
    { name: 'target', type: 'Short Text', required: true, writable: 'never' },
    { name: 'started_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'ended_at', type: 'Date Time', writable: 'never' },
    { name: 'end_reason', type: 'Text', writable: 'never' },
    // Bookkeeping of the server processes relaying sessions (closing those of a dead one).
    { name: 'server_instance', type: 'Short Text', required: true, writable: 'never', secret: true },
    { name: 'seen_at', type: 'Date Time', required: true, default: 'now()', writable: 'never', secret: true },
  ],
  unique: [['session']],
  indexes: [['device']],
} as const satisfies ResourceDef;
