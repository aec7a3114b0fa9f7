import type { ResourceDef } from '../types.js';

/**
 * Releases (spec 2 §3, §4; dialect §3): a release of an application is a set of images, one
 * per service, built from one commit. `balena deploy` creates them as release (running) →
 * service (get or create) → image → image__is_part_of__release, then marks images and the
 * release done.
 */

/** Release status vocabulary (spec 2 §4). */
export const RELEASE_STATUSES = ['running', 'success', 'failed', 'error', 'timeout', 'interrupted', 'cancelled', 'local'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

/** Image build status (as balena-cli reports it). */
export const IMAGE_STATUSES = ['running', 'success', 'failed', 'error', 'cancelled', 'interrupted', 'local'] as const;

export const RELEASE_SOURCES = ['cloud', 'local'] as const;

export const release = {
  name: 'release',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'belongs_to__application', type: 'ForeignKey', references: 'application', required: true, writable: 'create', onDelete: 'cascade' },
    // Set by the server to the caller (a user's release) when not given.
    { name: 'is_created_by__user', type: 'ForeignKey', references: 'user', writable: 'create', onDelete: 'set null' },
    { name: 'commit', type: 'Short Text', required: true, writable: 'create', maxLength: 255 },
    { name: 'composition', type: 'JSON' },
    { name: 'status', type: 'Short Text', required: true, enum: RELEASE_STATUSES },
    { name: 'source', type: 'Short Text', required: true, default: "'cloud'", writable: 'create', enum: RELEASE_SOURCES },
    { name: 'build_log', type: 'Text' },
    { name: 'is_invalidated', type: 'Boolean', required: true, default: 'false' },
    { name: 'is_final', type: 'Boolean', required: true, default: 'true' },
    { name: 'is_passing_tests', type: 'Boolean', required: true, default: 'true' },
    { name: 'start_timestamp', type: 'Date Time', required: true, default: 'now()' },
    { name: 'update_timestamp', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'end_timestamp', type: 'Date Time' },
    // Three-part semver; the server keeps the parts and raw_version in step.
    { name: 'semver', type: 'Short Text', required: true, default: "'0.0.0'", maxLength: 255 },
    { name: 'semver_major', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'semver_minor', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'semver_patch', type: 'Integer', required: true, default: '0', writable: 'never' },
    { name: 'revision', type: 'Integer', writable: 'never' },
    // `semver`, `semver+rev<N>` for final releases, `0.0.0-<timestamp>` for drafts.
    { name: 'raw_version', type: 'Short Text', required: true, default: "'0.0.0'", writable: 'never' },
    { name: 'variant', type: 'Short Text', required: true, default: "''", maxLength: 255 },
    { name: 'phase', type: 'Short Text', maxLength: 255 },
    { name: 'known_issue_list', type: 'Text', maxLength: 10000 },
    { name: 'note', type: 'Text', maxLength: 100000 },
    { name: 'contract', type: 'JSON' },
    { name: 'invalidation_reason', type: 'Text', maxLength: 10000 },
  ],
  reverse: [
    { name: 'release_tag', resource: 'release_tag', via: 'release' },
    { name: 'release_asset', resource: 'release_asset', via: 'release' },
    { name: 'release_image', resource: 'image__is_part_of__release', via: 'is_part_of__release' },
    { name: 'should_be_running_on__application', resource: 'application', via: 'should_be_running__release' },
  ],
  indexes: [['belongs_to__application'], ['commit']],
} as const satisfies ResourceDef;

export const service = {
  name: 'service',
  synonyms: ['application__has__service_name'],
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'application', type: 'ForeignKey', references: 'application', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'service_name', type: 'Short Text', required: true, maxLength: 63 },
  ],
  reverse: [
    { name: 'is_built_by__image', resource: 'image', via: 'is_a_build_of__service' },
    { name: 'service_install', resource: 'service_install', via: 'installs__service' },
    { name: 'service_environment_variable', resource: 'service_environment_variable', via: 'service' },
  ],
  unique: [['application', 'service_name']],
} as const satisfies ResourceDef;

export const image = {
  name: 'image',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'is_a_build_of__service', type: 'ForeignKey', references: 'service', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'start_timestamp', type: 'Date Time', required: true, default: 'now()' },
    { name: 'end_timestamp', type: 'Date Time' },
    { name: 'push_timestamp', type: 'Date Time' },
    { name: 'status', type: 'Short Text', required: true, enum: IMAGE_STATUSES },
    { name: 'content_hash', type: 'Short Text', maxLength: 255 },
    { name: 'image_size', type: 'Big Integer' },
    { name: 'project_type', type: 'Short Text', maxLength: 255 },
    { name: 'error_message', type: 'Text', maxLength: 100000 },
    // As balena: only read when `$select`ed (balena-sdk `image.getLogs` asks for it).
    { name: 'build_log', type: 'Text', onlyWhenSelected: true },
    { name: 'dockerfile', type: 'Text' },
    // Registry location, `registry/repository@sha256:…`; the server names it on create.
    { name: 'is_stored_at__image_location', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
    { name: 'contract', type: 'JSON' },
  ],
  reverse: [{ name: 'is_part_of__release', resource: 'image__is_part_of__release', via: 'image' }],
  indexes: [['is_a_build_of__service']],
} as const satisfies ResourceDef;

export const image__is_part_of__release = {
  name: 'image__is_part_of__release',
  synonyms: ['release_image'],
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'image', type: 'ForeignKey', references: 'image', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'is_part_of__release', type: 'ForeignKey', references: 'release', required: true, writable: 'create', onDelete: 'cascade' },
  ],
  unique: [['image', 'is_part_of__release']],
  indexes: [['is_part_of__release']],
} as const satisfies ResourceDef;

export const release_tag = {
  name: 'release_tag',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'release', type: 'ForeignKey', references: 'release', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'tag_key', type: 'Short Text', required: true, writable: 'create', maxLength: 100 },
    { name: 'value', type: 'Text', required: true, maxLength: 10000 },
  ],
  unique: [['release', 'tag_key']],
} as const satisfies ResourceDef;

export const application_tag = {
  name: 'application_tag',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'application', type: 'ForeignKey', references: 'application', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'tag_key', type: 'Short Text', required: true, writable: 'create', maxLength: 100 },
    { name: 'value', type: 'Text', required: true, maxLength: 10000 },
  ],
  unique: [['application', 'tag_key']],
} as const satisfies ResourceDef;

/** Largest file a release asset may hold unless FLOTILLA_RELEASE_ASSET_MAX_BYTES says otherwise (1 GiB). */
export const RELEASE_ASSET_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * A file attached to a release under a key (balena's release_asset; balena-sdk
 * `models.release.asset`): uploaded as multipart/form-data, or in parts through the
 * `beginUpload` / `commitUpload` actions for large files. One asset per (release, key).
 */
export const release_asset = {
  name: 'release_asset',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'release', type: 'ForeignKey', references: 'release', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'asset_key', type: 'Short Text', required: true, writable: 'create', maxLength: 255 },
    { name: 'asset', type: 'WebResource' },
  ],
  unique: [['release', 'asset_key']],
} as const satisfies ResourceDef;
