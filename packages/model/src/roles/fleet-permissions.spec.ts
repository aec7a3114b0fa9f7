import { describe, expect, it } from 'vitest';
import { fleetRoleCan, fleetRolePermissions, selectableFleetRoles } from './fleet-permissions.js';

describe('fleet role permissions (spec 2 §6)', () => {
  it('accumulate: each level holds what the levels below hold', () => {
    const observer = fleetRolePermissions('observer');
    const operator = fleetRolePermissions('operator');
    const developer = fleetRolePermissions('developer');
    const administrator = fleetRolePermissions('administrator');
    for (const p of observer) expect(operator).toContain(p);
    for (const p of operator) expect(developer).toContain(p);
    for (const p of developer) expect(administrator).toContain(p);
    expect(fleetRolePermissions(undefined)).toEqual([]);
    expect(fleetRolePermissions('member')).toEqual([]);
  });

  it('grants what the spec lists per level, a.b.all implying a.b.c', () => {
    expect(fleetRoleCan('observer', 'resin.device.update')).toBe(false);
    expect(fleetRoleCan('operator', 'resin.device.update')).toBe(true);
    expect(fleetRoleCan('operator', 'resin.device_tag.create')).toBe(true);
    expect(fleetRoleCan('operator', 'resin.application.update')).toBe(false);
    expect(fleetRoleCan('developer', 'resin.application.update')).toBe(true);
    expect(fleetRoleCan('developer', 'resin.release.delete')).toBe(true);
    expect(fleetRoleCan('developer', 'resin.application.delete')).toBe(false);
    expect(fleetRoleCan('developer', 'resin.user_application_membership.create')).toBe(false);
    expect(fleetRoleCan('administrator', 'resin.application.delete')).toBe(true);
    expect(fleetRoleCan('administrator', 'resin.application.transfer')).toBe(true);
    expect(fleetRoleCan('administrator', 'resin.user_application_membership.delete')).toBe(true);
    expect(fleetRoleCan('administrator', 'resin.team_application_access.create')).toBe(true);
    expect(fleetRoleCan('member', 'resin.application.read')).toBe(false);
  });

  it('operator is paid only; without a plan nothing is limited', () => {
    expect(selectableFleetRoles('free')).toEqual([
      { role: 'observer', selectable: true },
      { role: 'operator', selectable: false },
      { role: 'developer', selectable: true },
      { role: 'administrator', selectable: true },
    ]);
    expect(selectableFleetRoles(undefined).every((r) => r.selectable)).toBe(true);
    expect(selectableFleetRoles('team').every((r) => r.selectable)).toBe(true);
  });
});
