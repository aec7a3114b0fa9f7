import type { ResourceDef } from '../types.js';

/**
 * What an audit event records. Issue 19 item 2: `staff_read`, a read of an organization's data
 * by provider staff (support agents, platform administrators, an administrator logged in as a
 * user). Issue 21 item 5: `write`, a POST/PATCH/PUT/DELETE through the data API, and `action`,
 * a state-changing custom route (a device reboot, accepting an invitation, a billing change).
 */
export const AUDIT_EVENT_KINDS = ['staff_read', 'write', 'action'] as const;
export type AuditEventKind = (typeof AUDIT_EVENT_KINDS)[number];

/** The platform role of the staff member behind a staff read. */
export const AUDIT_STAFF_ROLES = ['support_agent', 'administrator'] as const;
export type AuditStaffRole = (typeof AUDIT_STAFF_ROLES)[number];

/** At most this many characters of a request's URL are kept (the resource, ids, filter). */
export const AUDIT_REQUEST_MAX_LENGTH = 2000;

/**
 * The organization's audit trail (issue 19 item 2; issue 21 grows it): one row per request
 * per organization whose data the request read. Written by the server only
 * (features/staff-audit); read-only through the data API, by the organization's
 * administrators (and platform administrators). The people are kept by name as well as by
 * reference: the trail outlives them, and an organization's administrators cannot read the
 * user rows of staff who are not members.
 */
export const audit_event = {
  name: 'audit_event',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'kind', type: 'Short Text', required: true, writable: 'never', enum: AUDIT_EVENT_KINDS },
    // Whose identity the request carried: the staff member, or the user an administrator is
    // logged in as.
    { name: 'is_performed_as__user', type: 'ForeignKey', references: 'user', writable: 'never', onDelete: 'set null' },
    { name: 'performed_as_username', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    // The person who acted (the token's actualUser): the staff member.
    { name: 'is_performed_by__user', type: 'ForeignKey', references: 'user', writable: 'never', onDelete: 'set null' },
    { name: 'performed_by_username', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    { name: 'staff_role', type: 'Short Text', writable: 'never', enum: AUDIT_STAFF_ROLES },
    { name: 'method', type: 'Short Text', required: true, writable: 'never', maxLength: 10 },
    // The route (`/v7/device`, `/device/v2/:uuid/logs`), the resource read and the request's
    // URL as sent (ids, $filter), cut to AUDIT_REQUEST_MAX_LENGTH.
    { name: 'route', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    { name: 'resource', type: 'Short Text', writable: 'never', maxLength: 255 },
    { name: 'request', type: 'Text', required: true, writable: 'never', maxLength: AUDIT_REQUEST_MAX_LENGTH },
    { name: 'request_id', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    // Issue 21 item 5. The API key the request authenticated with (`#id name`), if any.
    { name: 'api_key', type: 'Short Text', writable: 'never', maxLength: 255 },
    // The custom action's name (`supervisor.reboot`), for kind `action`.
    { name: 'action', type: 'Short Text', writable: 'never', maxLength: 255 },
    // The ids of the rows written (comma-separated), for kind `write`.
    { name: 'row_ids', type: 'Text', writable: 'never', maxLength: 20000 },
    // What changed: `{ "<row id>": { "before": {field: value}, "after": {field: value} } }`,
    // only the fields that changed; secret fields (and secret-looking variables) as "[masked]".
    { name: 'changes', type: 'JSON', writable: 'never' },
    // The hash chain (docs/audit-log.md): the organization's previous row's hash (null for its
    // first), and SHA-256 over this row's canonical content including prev_hash. Set by the
    // database on insert (trigger audit_event_chain, migration 0046).
    { name: 'prev_hash', type: 'Short Text', writable: 'never', maxLength: 64 },
    { name: 'hash', type: 'Short Text', required: true, writable: 'never', maxLength: 64 },
  ],
  indexes: [['organization', 'created_at'], ['organization', 'id']],
} as const satisfies ResourceDef;
