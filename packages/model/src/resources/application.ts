import type { ResourceDef } from '../types.js';

export const APPLICATION_CLASSES = ['fleet', 'app', 'block'] as const;
export type ApplicationClass = (typeof APPLICATION_CLASSES)[number];

export const application_type = {
  name: 'application_type',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'name', type: 'Short Text', required: true, writable: 'never' },
    { name: 'slug', type: 'Short Text', required: true, writable: 'never' },
    { name: 'description', type: 'Text', writable: 'never' },
    { name: 'is_legacy', type: 'Boolean', required: true, default: 'false', writable: 'never' },
    { name: 'supports_web_url', type: 'Boolean', required: true, default: 'true', writable: 'never' },
    { name: 'supports_multicontainer', type: 'Boolean', required: true, default: 'true', writable: 'never' },
    { name: 'supports_gateway_mode', type: 'Boolean', required: true, default: 'true', writable: 'never' },
    { name: 'requires_payment', type: 'Boolean', required: true, default: 'false', writable: 'never' },
    { name: 'needs__os_version_range', type: 'Short Text', writable: 'never' },
    { name: 'maximum_device_count', type: 'Integer', writable: 'never' },
  ],
  alternateKeys: [['slug']],
  unique: [['slug']],
} as const satisfies ResourceDef;

export const application = {
  name: 'application',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'actor', type: 'ForeignKey', references: 'actor', required: true, writable: 'never' },
    { name: 'app_name', type: 'Short Text', required: true, maxLength: 100 },
    // lowercase `orghandle/app_name`, maintained by the server.
    { name: 'slug', type: 'Short Text', required: true, writable: 'never' },
    { name: 'uuid', type: 'Short Text', required: true, writable: 'create' },
    { name: 'is_of__class', type: 'Short Text', required: true, default: "'fleet'", writable: 'create', enum: APPLICATION_CLASSES },
    { name: 'organization', type: 'ForeignKey', references: 'organization', required: true, onDelete: 'cascade' },
    { name: 'is_for__device_type', type: 'ForeignKey', references: 'device_type', required: true },
    { name: 'application_type', type: 'ForeignKey', references: 'application_type' },
    { name: 'should_track_latest_release', type: 'Boolean', required: true, default: 'true' },
    { name: 'is_host', type: 'Boolean', required: true, default: 'false', writable: 'never' },
    { name: 'is_public', type: 'Boolean', required: true, default: 'false' },
    { name: 'is_discoverable', type: 'Boolean', required: true, default: 'false' },
    { name: 'is_archived', type: 'Boolean', required: true, default: 'false' },
    { name: 'is_accessible_by_support_until__date', type: 'Date Time' },
    { name: 'is_stored_at__repository_url', type: 'Text', maxLength: 2000 },
    // The fleet's target release: pinned, or the latest final successful one while
    // should_track_latest_release holds (kept by the server).
    { name: 'should_be_running__release', type: 'ForeignKey', references: 'release', onDelete: 'set null' },
  ],
  reverse: [
    { name: 'owns__release', resource: 'release', via: 'belongs_to__application' },
    { name: 'owns__device', resource: 'device', via: 'belongs_to__application' },
    { name: 'service', resource: 'service', via: 'application' },
    { name: 'application_tag', resource: 'application_tag', via: 'application' },
    { name: 'application_environment_variable', resource: 'application_environment_variable', via: 'application' },
    { name: 'application_config_variable', resource: 'application_config_variable', via: 'application' },
    { name: 'build_environment_variable', resource: 'build_environment_variable', via: 'application' },
    { name: 'user_application_membership', resource: 'user_application_membership', via: 'is_member_of__application' },
    { name: 'team_application_access', resource: 'team_application_access', via: 'grants_access_to__application' },
  ],
  alternateKeys: [['slug'], ['uuid']],
  unique: [['slug'], ['uuid']],
  indexes: [['organization'], ['is_for__device_type']],
} as const satisfies ResourceDef;
