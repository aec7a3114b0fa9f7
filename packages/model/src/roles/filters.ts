import { ACTOR_ALIAS } from '../permissions.js';
import { APPLICATION_MEMBERSHIP_ROLES } from '../access/access.resource.js';
import { fleetRolesFrom, type FleetRole } from './fleet.js';

/**
 * Small builders for the OData texts of permission conditions, so that each rule in the
 * role table reads like the spec. Every builder takes `at`: where the row it talks about
 * is, as a path prefix — '' for the resource the permission is on, `x/` for a lambda
 * variable — and returns filter text relative to it.
 */

/** `nav/any(v: cond)` from the row at `at`; `cond` gets the prefix of the reached row. */
export const through = (at: string, nav: string, v: string, cond: (at: string) => string): string =>
  `${at}${nav}/any(${v}:${cond(`${v}/`)})`;

const anyOf = (parts: readonly string[]): string => (parts.length === 1 ? parts[0]! : `(${parts.join(' or ')})`);

/** The `user` of the row at `at` is the caller. */
export const userIsMe = (at = ''): string => through(at, 'user', 'u', (u) => `${u}actor eq ${ACTOR_ALIAS}`);

/** The row at `at` has a role (through `nav`) named one of `names`. */
const roleIn = (at: string, nav: string, names: readonly string[]): string =>
  through(at, nav, 'r', (r) => anyOf(names.map((n) => `${r}name eq '${n}'`)));

// ---- organizations (the row at `at` is an organization) ----

/** The caller is a member (any role) of the organization at `at`. */
export const isOrgMember = (at = ''): string => through(at, 'organization_membership', 'om', (m) => userIsMe(m));

/** The caller is an administrator of the organization at `at`. */
export const isOrgAdmin = (at = ''): string =>
  through(at, 'organization_membership', 'om', (m) => `${userIsMe(m)} and ${roleIn(m, 'organization_membership_role', ['administrator'])}`);

/** Follows the foreign key `fk` of the row at `at` to an organization and applies `cond`. */
export const inOrganization = (fk: string, cond: (at: string) => string, at = ''): string => through(at, fk, 'o', cond);

// ---- users (the row at `at` is a user) ----

/**
 * The user at `at` is a member of an organization the caller is a member of (the caller
 * themself included, when they are a member of any organization).
 */
export const sharesOrganizationWithMe = (at = ''): string =>
  through(at, 'organization_membership', 'um', (m) => inOrganization('is_member_of__organization', isOrgMember, m));

// ---- fleets (the row at `at` is an application) ----

/**
 * The caller's effective role on the fleet at `at` is `level` or higher (see
 * `effectiveFleetRole`): organization administrator (⇒ administrator), organization member
 * (⇒ member, only for level 'member'), a direct fleet membership, or a team's access.
 */
export function fleetRoleAtLeast(level: FleetRole, at = ''): string {
  const granting = fleetRolesFrom(level).filter((r) => (APPLICATION_MEMBERSHIP_ROLES as readonly string[]).includes(r));
  const parts = [inOrganization('organization', isOrgAdmin, at)];
  if (level === 'member') parts.push(inOrganization('organization', isOrgMember, at));
  parts.push(
    through(at, 'user_application_membership', 'fm', (m) => `${userIsMe(m)} and ${roleIn(m, 'application_membership_role', granting)}`),
    through(
      at,
      'team_application_access',
      'ta',
      (ta) =>
        `${roleIn(ta, 'application_membership_role', granting)} and ${through(ta, 'team', 't', (t) => through(t, 'team_membership', 'tm', userIsMe))}`,
    ),
  );
  return anyOf(parts);
}

/** Follows the foreign key `fk` of the row at `at` to an application and applies `cond`. */
export const onFleet = (fk: string, cond: (at: string) => string, at = ''): string => through(at, fk, 'a', cond);
