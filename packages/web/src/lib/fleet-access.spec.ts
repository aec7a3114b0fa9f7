import { describe, expect, it } from 'vitest';
import { fleetAccessFrom } from './fleet-access';

describe('fleetAccessFrom', () => {
  it('lets fleet administrators manage memberships and developers only read team access', () => {
    const admin = fleetAccessFrom('administrator', null);
    expect(admin.can('resin.user_application_membership.create')).toBe(true);
    const developer = fleetAccessFrom('developer', null);
    expect(developer.canRead).toBe(true);
    expect(developer.atLeast('developer')).toBe(true);
    expect(developer.can('resin.user_application_membership.create')).toBe(false);
    expect(developer.can('resin.team_application_access.create')).toBe(false);
    expect(fleetAccessFrom('observer', null).atLeast('developer')).toBe(false);
  });

  it('lets only organization administrators grant teams access (a fleet-only administrator cannot)', () => {
    expect(fleetAccessFrom('administrator', null, 'administrator').canManageTeamAccess).toBe(true);
    expect(fleetAccessFrom('administrator', null, 'member').canManageTeamAccess).toBe(false);
    expect(fleetAccessFrom('developer', null, 'member').canManageTeamAccess).toBe(false);
  });

  it('gives a plain organization member no read access to the fleet', () => {
    expect(fleetAccessFrom('member', null).canRead).toBe(false);
    expect(fleetAccessFrom(undefined, null).canRead).toBe(false);
  });

  it('lets provider staff read every fleet but hold only the staff rights of spec 2 §6', () => {
    const support = fleetAccessFrom(undefined, 'support_agent');
    expect(support.canRead && support.atLeast('developer')).toBe(true);
    expect(support.can('resin.user_application_membership.create')).toBe(false);
    expect(support.can('resin.device.ssh')).toBe(true);
    expect(support.can('resin.organization_membership.create')).toBe(false);
    const admin = fleetAccessFrom(undefined, 'administrator');
    expect(admin.can('resin.team_application_access.create')).toBe(false);
    expect(admin.can('resin.application.update')).toBe(false);
    expect(admin.can('resin.organization_membership.create')).toBe(true);
    // A staff member who is also a fleet administrator keeps what the fleet role gives.
    expect(fleetAccessFrom('administrator', 'administrator').can('resin.team_application_access.create')).toBe(true);
  });
});
