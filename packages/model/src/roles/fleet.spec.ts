import { describe, expect, it } from 'vitest';
import { conditionsFor } from '../permissions.js';
import { ROLES } from './roles.js';
import { effectiveFleetRole, FLEET_ROLE_LEVELS, fleetRolesFrom, highestFleetRole, SEAT_ROLES } from './fleet.js';
import { fleetRoleAtLeast } from './filters.js';

describe('fleet role levels', () => {
  it('accumulate from member to administrator', () => {
    expect(FLEET_ROLE_LEVELS).toEqual(['member', 'observer', 'operator', 'developer', 'administrator']);
    expect(SEAT_ROLES).toEqual(FLEET_ROLE_LEVELS);
    expect(fleetRolesFrom('developer')).toEqual(['developer', 'administrator']);
    expect(highestFleetRole([undefined, 'observer', null, 'operator'])).toBe('operator');
    expect(highestFleetRole([])).toBeUndefined();
  });
});

describe('effectiveFleetRole', () => {
  it('is the highest of organization role, fleet membership and team access', () => {
    expect(effectiveFleetRole('administrator', undefined)).toBe('administrator');
    expect(effectiveFleetRole('administrator', 'observer', ['operator'])).toBe('administrator');
    expect(effectiveFleetRole('member', undefined)).toBe('member');
    expect(effectiveFleetRole('member', 'observer')).toBe('observer');
    expect(effectiveFleetRole('member', 'observer', ['developer', 'operator'])).toBe('developer');
    expect(effectiveFleetRole('member', 'developer', ['observer'])).toBe('developer');
    expect(effectiveFleetRole(null, null, ['operator'])).toBe('operator');
    expect(effectiveFleetRole(undefined, undefined, [])).toBeUndefined();
  });
});

describe('fleet role conditions', () => {
  it('name the roles at the level and above, and the organization administrator', () => {
    const dev = fleetRoleAtLeast('developer');
    expect(dev).toContain("name eq 'developer' or r/name eq 'administrator'");
    expect(dev).not.toContain("'operator'");
    expect(dev).toContain("organization_membership_role/any(r:r/name eq 'administrator')");
    expect(dev).toContain('team_application_access/any(ta:');
    // Only level 'member' is granted by plain organization membership.
    expect(fleetRoleAtLeast('member').match(/organization_membership\/any/g)).toHaveLength(2);
    expect(fleetRoleAtLeast('observer').match(/organization_membership\/any/g)).toHaveLength(1);
    // Relative to a lambda variable.
    expect(fleetRoleAtLeast('observer', 'a/')).toMatch(/^\(a\/organization\/any\(o:o\/organization_membership/);
  });

  it('give signed-in users the table rights of spec 2 §6', () => {
    const user = ROLES['default-user'];
    expect(conditionsFor(user, 'application', 'read')).toEqual(['is_public eq true', fleetRoleAtLeast('observer')]);
    expect(conditionsFor(user, 'application', 'update')).toEqual([fleetRoleAtLeast('developer')]);
    expect(conditionsFor(user, 'application', 'delete')).toEqual([fleetRoleAtLeast('administrator')]);
    expect(conditionsFor(user, 'application_membership_role', 'read')).toBe(true);
    expect(conditionsFor(ROLES.anonymous, 'team', 'read')).toBe(false);
    for (const r of ['team', 'team_membership', 'team_application_access', 'user_application_membership']) {
      for (const a of ['read', 'create', 'update', 'delete'] as const) {
        expect(Array.isArray(conditionsFor(user, r, a)), `${r}.${a}`).toBe(true);
      }
    }
  });
});
