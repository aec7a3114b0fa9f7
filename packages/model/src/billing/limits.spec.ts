import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGUE } from './catalogue.js';
import {
  BILLING_LIMIT_MESSAGES as M,
  deactivationProblem,
  deviceAllowanceProblem,
  fleetRoleProblem,
  freePlanBlocked,
  includedDevices,
  invitationRoleProblem,
  OPERATOR_FALLBACK_ROLE,
  planChangeLowersOperators,
  planIncludesFeature,
  samlProblem,
  supportProblem,
} from './limits.js';

const plan = (code: string) => {
  const p = DEFAULT_CATALOGUE.plans.find((x) => x.code === code)!;
  return { code: p.code, includes: p.includes };
};
const free = plan('free');
const pilot = plan('pilot-v2');
const enterprise = plan('enterprise-v2');

describe('plan limits (issue 18 item 2)', () => {
  it('limits nothing while billing is off', () => {
    expect(fleetRoleProblem(null, 'operator')).toBeNull();
    expect(deactivationProblem(null)).toBeNull();
    expect(samlProblem(null)).toBeNull();
    expect(deviceAllowanceProblem(null, 500)).toBeNull();
    expect(planIncludesFeature(null, 'anything')).toBe(true);
  });
  it('gives the operator role on paid plans only; other roles anywhere', () => {
    expect(fleetRoleProblem(free, 'operator')).toBe(M.operatorNeedsPaidPlan);
    expect(fleetRoleProblem(free, 'developer')).toBeNull();
    expect(fleetRoleProblem(free, undefined)).toBeNull();
    expect(fleetRoleProblem(pilot, 'operator')).toBeNull();
  });
  it('refuses an operator invitation at acceptance once the plan has no operators, telling the invitee to ask an administrator', () => {
    expect(invitationRoleProblem(free, 'operator')).toBe(M.operatorInvitationNeedsPaidPlan);
    expect(M.operatorInvitationNeedsPaidPlan).toContain('Ask an administrator');
    expect(invitationRoleProblem(free, 'developer')).toBeNull();
    expect(invitationRoleProblem(free, 'observer')).toBeNull();
    expect(invitationRoleProblem(pilot, 'operator')).toBeNull();
    expect(invitationRoleProblem(null, 'operator')).toBeNull();
  });
  it('lowers operators to observers on a change to a plan without operator seats', () => {
    expect(planChangeLowersOperators(free)).toBe(true);
    expect(planChangeLowersOperators(pilot)).toBe(false);
    expect(planChangeLowersOperators(enterprise)).toBe(false);
    expect(OPERATOR_FALLBACK_ROLE).toBe('observer');
  });
  it('deactivates devices on paid plans only', () => {
    expect(deactivationProblem(free)).toBe(M.deactivationNeedsPaidPlan);
    expect(deactivationProblem(pilot)).toBeNull();
  });
  it('offers private support on paid plans to verified emails', () => {
    expect(supportProblem(free, true)).toBe(M.supportNeedsPaidPlan);
    expect(supportProblem(pilot, false)).toBe(M.supportNeedsVerifiedEmail);
    expect(supportProblem(pilot, true)).toBeNull();
  });
  it('includes SAML on the plans that list it', () => {
    expect(samlProblem(pilot)).toBe(M.samlNeedsPlan);
    expect(samlProblem(enterprise)).toBeNull();
  });
  it('stops the free plan at 10 devices, not paid plans', () => {
    expect(deviceAllowanceProblem(free, 9)).toBeNull();
    expect(deviceAllowanceProblem(free, 10)).toBe(M.freeAllowanceReached);
    expect(deviceAllowanceProblem(free, 8, 3)).toBe(M.freeAllowanceReached);
    expect(deviceAllowanceProblem(pilot, 10_000)).toBeNull();
    expect(includedDevices(free)).toBe(10);
  });
  it('blocks the free plan over the allowance or with frozen devices', () => {
    expect(freePlanBlocked({ total: 10 })).toBe(false);
    expect(freePlanBlocked({ total: 11 })).toBe(true);
    expect(freePlanBlocked({ total: 3, frozen: 1 })).toBe(true);
  });
});
