import type { ResourceDef } from '../types.js';

/** The variable resources whose writes the history records (`variable_change.variable_kind`). */
export const AUDITED_VARIABLE_RESOURCES = [
  'application_config_variable',
  'application_environment_variable',
  'service_environment_variable',
  'device_config_variable',
  'device_environment_variable',
  'device_service_environment_variable',
] as const;
export type AuditedVariableResource = (typeof AUDITED_VARIABLE_RESOURCES)[number];

export const VARIABLE_CHANGE_ACTIONS = ['create', 'update', 'delete'] as const;
export type VariableChangeAction = (typeof VARIABLE_CHANGE_ACTIONS)[number];

/**
 * The history of variables (issue 16 item 2): one row per create, update and delete of a
 * fleet, fleet-service, device or device-service variable, written by the server in the
 * write's own transaction (features/variables). Who (`actor`, a user, and `actor_name`, a
 * snapshot: the username, 'device', 'API key <name>' or 'system'), when, which fleet,
 * device and service, the old and new values. Read-only through the data API, for whoever
 * reads the fleet; it goes with its fleet, device or service.
 */
export const variable_change = {
  name: 'variable_change',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'application', type: 'ForeignKey', references: 'application', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'device', type: 'ForeignKey', references: 'device', writable: 'never', onDelete: 'cascade' },
    { name: 'service', type: 'ForeignKey', references: 'service', writable: 'never', onDelete: 'cascade' },
    { name: 'variable_kind', type: 'Short Text', required: true, writable: 'never', enum: AUDITED_VARIABLE_RESOURCES },
    { name: 'name', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    { name: 'action', type: 'Short Text', required: true, writable: 'never', enum: VARIABLE_CHANGE_ACTIONS },
    { name: 'old_value', type: 'Text', writable: 'never' },
    { name: 'new_value', type: 'Text', writable: 'never' },
    { name: 'actor', type: 'ForeignKey', references: 'user', writable: 'never', onDelete: 'set null' },
    { name: 'actor_name', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
  ],
  indexes: [['application', 'created_at'], ['device'], ['service'], ['actor']],
} as const satisfies ResourceDef;
