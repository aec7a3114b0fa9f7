import type { ResourceDef } from '../types.js';

/**
 * Fleet access (spec 1 §3, §6; spec 2 §6): a user reaches a fleet through their organization
 * role, a direct fleet membership, or a team's access to the fleet. The roles themselves
 * (what each level may do) are in `roles/`.
 */

/** Fleet access roles a membership or team access can grant, lowest first. */
export const APPLICATION_MEMBERSHIP_ROLES = ['observer', 'operator', 'developer', 'administrator'] as const;
export type ApplicationMembershipRole = (typeof APPLICATION_MEMBERSHIP_ROLES)[number];

export const application_membership_role = {
  name: 'application_membership_role',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'name', type: 'Short Text', required: true, writable: 'never', enum: APPLICATION_MEMBERSHIP_ROLES },
  ],
  alternateKeys: [['name']],
  unique: [['name']],
} as const satisfies ResourceDef;

export const user_application_membership = {
  name: 'user_application_membership',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'user', type: 'ForeignKey', references: 'user', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'is_member_of__application', type: 'ForeignKey', references: 'application', required: true, writable: 'create', onDelete: 'cascade' },
    // balena: a fleet membership created without a role is a developer's.
    { name: 'application_membership_role', type: 'ForeignKey', references: 'application_membership_role', required: true, defaultReference: { name: 'developer' } },
  ],
  unique: [['user', 'is_member_of__application']],
  indexes: [['is_member_of__application']],
} as const satisfies ResourceDef;

export const team = {
  name: 'team',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'name', type: 'Short Text', required: true, maxLength: 255 },
    { name: 'belongs_to__organization', type: 'ForeignKey', references: 'organization', required: true, writable: 'create', onDelete: 'cascade' },
  ],
  reverse: [
    { name: 'team_membership', resource: 'team_membership', via: 'is_member_of__team' },
    { name: 'team_application_access', resource: 'team_application_access', via: 'team' },
  ],
  // Names are unique per organization, case-insensitively (spec 1 §5).
  uniqueCaseInsensitive: [['belongs_to__organization', 'name']],
} as const satisfies ResourceDef;

export const team_membership = {
  name: 'team_membership',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'user', type: 'ForeignKey', references: 'user', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'is_member_of__team', type: 'ForeignKey', references: 'team', required: true, writable: 'create', onDelete: 'cascade' },
  ],
  unique: [['user', 'is_member_of__team']],
  indexes: [['is_member_of__team']],
} as const satisfies ResourceDef;

export const team_application_access = {
  name: 'team_application_access',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'team', type: 'ForeignKey', references: 'team', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'grants_access_to__application', type: 'ForeignKey', references: 'application', required: true, writable: 'create', onDelete: 'cascade' },
    { name: 'application_membership_role', type: 'ForeignKey', references: 'application_membership_role', required: true },
  ],
  unique: [['team', 'grants_access_to__application']],
  indexes: [['grants_access_to__application']],
} as const satisfies ResourceDef;
