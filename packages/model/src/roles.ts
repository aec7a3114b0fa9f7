import { model } from './model.js';

/**
 * Roles as data. Each role maps to a permission set; conditions are OData filters over the
 * resource, bound to the acting actor (`@__ACTOR_ID`). The data API AND-s them into SQL.
 */

const ME = `actor eq @__ACTOR_ID`;
/** The caller is a member (any role) of organization `o`. */
const memberOf = (o: string) => `${o}/organization_membership/any(om:om/user/any(u:u/${ME}))`;
/** The caller is an administrator of organization `o`. */
const adminOf = (o: string) =>
  `${o}/organization_membership/any(om:om/user/any(u:u/${ME}) and om/organization_membership_role/any(r:r/name eq 'administrator'))`;

const ORG_MEMBER = `organization_membership/any(om:om/user/any(u:u/${ME}))`;
const ORG_ADMIN = `organization_membership/any(om:om/user/any(u:u/${ME}) and om/organization_membership_role/any(r:r/name eq 'administrator'))`;

/** Reference data everyone (signed in or not) may read. */
const PUBLIC_REFERENCE = [
  'resin.cpu_architecture.read',
  'resin.device_type.read?is_private eq false',
  'resin.device_type_alias.read?device_type/any(dt:dt/is_private eq false)',
  'resin.application_type.read',
  'resin.organization_membership_role.read',
];

export const ROLES = {
  anonymous: [...PUBLIC_REFERENCE, 'resin.application.read?is_public eq true'],

  'default-user': [
    ...PUBLIC_REFERENCE,
    `resin.actor.read?id eq @__ACTOR_ID`,
    `resin.user.read?${ME}`,
    `resin.user.update?${ME}`,
    `resin.api_key.read?is_of__actor eq @__ACTOR_ID`,
    `resin.api_key.update?is_of__actor eq @__ACTOR_ID`,
    `resin.api_key.delete?is_of__actor eq @__ACTOR_ID`,

    // Organizations: members read; administrators change. Any user may create one (and
    // becomes its administrator).
    `resin.organization.read?${ORG_MEMBER}`,
    'resin.organization.create',
    `resin.organization.update?${ORG_ADMIN}`,
    `resin.organization.delete?${ORG_ADMIN}`,

    `resin.organization_membership.read?${memberOf('is_member_of__organization/any(o:o')})`,
    `resin.organization_membership.create?${adminOf('is_member_of__organization/any(o:o')})`,
    `resin.organization_membership.update?${adminOf('is_member_of__organization/any(o:o')})`,
    `resin.organization_membership.delete?${adminOf('is_member_of__organization/any(o:o')})`,
    // A user may always delete their own membership (leave); the last-administrator rule
    // is a hook.
    `resin.organization_membership.delete?user/any(u:u/${ME})`,

    // Fleets: public ones for everybody; organization administrators have full access.
    // (Fleet memberships and team access extend this in the organizations issue.)
    'resin.application.read?is_public eq true',
    `resin.application.read?${adminOf('organization/any(o:o')})`,
    `resin.application.create?${adminOf('organization/any(o:o')})`,
    `resin.application.update?${adminOf('organization/any(o:o')})`,
    `resin.application.delete?${adminOf('organization/any(o:o')})`,
  ],

  /** Provider staff with full access. */
  'platform-administrator': [
    ...Object.keys(model).map((r) => `resin.${r}.all`),
    'admin.home',
    'support.home',
  ],

  /** Provider support staff: read access (write access comes with granted support access). */
  support_agent: [...Object.keys(model).map((r) => `resin.${r}.read`), 'support.home'],
} satisfies Record<string, string[]>;

export type RoleName = keyof typeof ROLES;
