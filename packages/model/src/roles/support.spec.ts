import { describe, expect, it } from 'vitest';
import { model } from '../model.js';
import { conditionsFor } from '../permissions.js';
import { ROLES } from './roles.js';
import { SUPPORT_GRANTED_READS, SUPPORT_NEVER, supportGranted } from './support.js';

/** Whether `resource` reaches a fleet or a device by following foreign keys (customer fleet data). */
function reachesFleetData(resource: string, seen = new Set<string>()): boolean {
  if (resource === 'application' || resource === 'device') return true;
  if (seen.has(resource)) return false;
  seen.add(resource);
  const def = model[resource];
  if (!def) return false;
  return def.fields.some((f) => f.type === 'ForeignKey' && f.references !== undefined && f.references !== 'user' && reachesFleetData(f.references, seen));
}

describe('support agent reads (issue 19 item 2)', () => {
  it('conditions every resource of fleet data on an unexpired grant', () => {
    for (const resource of Object.keys(model)) {
      const c = conditionsFor(ROLES.support_agent, resource, 'read');
      if (SUPPORT_NEVER.has(resource)) {
        expect(c, resource).toBe(false);
      } else if (resource in SUPPORT_GRANTED_READS) {
        expect(Array.isArray(c), resource).toBe(true);
        expect((c as string[]).join(' '), resource).toContain('is_accessible_by_support_until__date gt now()');
      } else {
        expect(c, resource).toBe(true);
      }
    }
  });

  it('leaves no resource that leads to a fleet or device readable without a grant', () => {
    const open = Object.keys(model).filter((r) => conditionsFor(ROLES.support_agent, r, 'read') === true);
    // Organization structure and reference data only; team fleet access names a fleet id
    // but none of its data (the fleet itself stays closed).
    const leaking = open.filter((r) => reachesFleetData(r) && r !== 'team_application_access' && r !== 'actor');
    expect(leaking).toEqual([]);
  });

  it('keeps what support needs to answer tickets readable', () => {
    for (const r of ['organization', 'user', 'organization_membership', 'team', 'team_membership', 'subscription', 'plan']) {
      expect(conditionsFor(ROLES.support_agent, r, 'read'), r).toBe(true);
    }
    expect(conditionsFor(ROLES.support_agent, 'user', 'read-private')).toBe(true);
  });

  it('gives support agents no writes', () => {
    for (const r of Object.keys(model)) {
      for (const action of ['create', 'update', 'delete'] as const) expect(conditionsFor(ROLES.support_agent, r, action), `${action} ${r}`).toBe(false);
    }
  });

  it('compares the expiry with the database clock, never a fixed time', () => {
    expect(supportGranted('d/')).toBe('d/is_accessible_by_support_until__date gt now()');
    expect(SUPPORT_GRANTED_READS.device).not.toMatch(/\d{4}-\d\d-\d\d/);
  });

  it('leaves platform administrators every read, the mail outbox included', () => {
    for (const r of Object.keys(model)) expect(conditionsFor(ROLES['platform-administrator'], r, 'read'), r).toBe(true);
  });
});
