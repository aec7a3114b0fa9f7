import { CAPABILITIES, deviceFeature, DEVICE_CLASSES, FREE_DEVICE_ALLOWANCE, tierOf } from './catalogue.js';
import { FREE_PLAN_CODE } from '../identity/account-deletion.js';

/**
 * Issue 18 item 2: the limits a plan sets, as pure rules the server enforces and the dashboard
 * mirrors. `plan` is the organization's current plan (its code and what it includes by feature
 * slug), or `null` while billing is off: then nothing is limited.
 */
export interface PlanLimits {
  code: string;
  includes: Readonly<Record<string, number>>;
}

export const BILLING_LIMIT_MESSAGES = {
  /** Spec 3 §6: the operator seat is paid only. */
  operatorNeedsPaidPlan: 'The operator role is available on paid plans only. Upgrade this organization\'s plan to give anyone the operator role.',
  /** An operator invitation accepted after the organization moved to a plan without operators (issue 18). */
  operatorInvitationNeedsPaidPlan:
    'This invitation gives the operator role, which this organization\'s plan no longer includes. Ask an administrator of the organization to invite you again with another role, or to upgrade the plan.',
  /** Spec 3 §9 deactivation fee: deactivating is a paid-plan feature. */
  deactivationNeedsPaidPlan: 'Deactivating devices is available on paid plans only. Upgrade this organization\'s plan to deactivate devices.',
  /** Spec 3 §8 warnings: provisioning over the free allowance is blocked. */
  freeAllowanceReached: `Free plan allowance reached: the free plan includes ${FREE_DEVICE_ALLOWANCE} devices. Upgrade this organization's plan to add more devices.`,
  /** Spec 3 §1/§5: private support needs a paid plan and a verified email. */
  supportNeedsPaidPlan: 'Private support is available on paid plans only.',
  supportNeedsVerifiedEmail: 'Private support needs a verified email address.',
  samlNeedsPlan: 'SAML single sign-on is not included in this organization\'s plan.',
  /** Spec 3 §4 plan change. */
  alreadyCurrent: 'This is already your plan.',
  contactSales: 'This plan change needs our sales team: please contact sales.',
  unknownPlan: 'There is no such plan.',
  needsPaymentMethod: 'Add a payment method before choosing a paid plan.',
  /** Spec 3 §4: the free plan is blocked by frozen free devices or more devices than the allowance. */
  freePlanBlocked: `This organization has more devices than the free plan allows (${FREE_DEVICE_ALLOWANCE}) or has frozen devices. Remove devices from the fleets to change to the free plan.`,
} as const;

/** Whether the plan includes a capability (quantity ≥ 1); billing off: always. */
export function planIncludesFeature(plan: PlanLimits | null, feature: string): boolean {
  if (plan === null) return true;
  return (plan.includes[feature] ?? 0) > 0;
}

/** Spec 3 §6: giving anyone the `operator` fleet role needs a plan with operator seats. Null = allowed. */
export function fleetRoleProblem(plan: PlanLimits | null, role: string | null | undefined): string | null {
  if (role !== 'operator') return null;
  return planIncludesFeature(plan, CAPABILITIES.operatorSeats) ? null : BILLING_LIMIT_MESSAGES.operatorNeedsPaidPlan;
}

/**
 * Accepting an invitation grants its role then, not when it was sent: an operator invitation
 * sent on a paid plan is refused once the organization's plan has no operator seats (the
 * invitation is kept; it can be accepted again after an upgrade). Null = allowed.
 */
export function invitationRoleProblem(plan: PlanLimits | null, role: string | null | undefined): string | null {
  return fleetRoleProblem(plan, role) === null ? null : BILLING_LIMIT_MESSAGES.operatorInvitationNeedsPaidPlan;
}

/** The fleet role an operator is lowered to when the organization changes to a plan without operator seats. */
export const OPERATOR_FALLBACK_ROLE = 'observer';

/**
 * Whether a change to plan `target` lowers the organization's operators to
 * OPERATOR_FALLBACK_ROLE (issue 18, docs/decisions.md): the target has no operator seats.
 */
export function planChangeLowersOperators(target: PlanLimits): boolean {
  return !planIncludesFeature(target, CAPABILITIES.operatorSeats);
}

/** Deactivating devices needs a plan with the `deactivation` feature. Null = allowed. */
export function deactivationProblem(plan: PlanLimits | null): string | null {
  return planIncludesFeature(plan, CAPABILITIES.deactivation) ? null : BILLING_LIMIT_MESSAGES.deactivationNeedsPaidPlan;
}

/** Private support: a plan with `support:private` and a verified email (spec 3 §1). */
export function supportProblem(plan: PlanLimits | null, emailVerified: boolean): string | null {
  if (!planIncludesFeature(plan, CAPABILITIES.privateSupport)) return BILLING_LIMIT_MESSAGES.supportNeedsPaidPlan;
  if (!emailVerified) return BILLING_LIMIT_MESSAGES.supportNeedsVerifiedEmail;
  return null;
}

/** SAML single sign-on (issue 20 calls the server's `planIncludes(db, org, 'saml')`). */
export function samlProblem(plan: PlanLimits | null): string | null {
  return planIncludesFeature(plan, CAPABILITIES.saml) ? null : BILLING_LIMIT_MESSAGES.samlNeedsPlan;
}

export const isFreePlan = (plan: PlanLimits | null): boolean => plan !== null && tierOf(plan.code) === FREE_PLAN_CODE;

/** The devices a plan includes (every device class summed); the free plan: its allowance. */
export function includedDevices(plan: Pick<PlanLimits, 'includes'>): number {
  return DEVICE_CLASSES.reduce((sum, c) => sum + (plan.includes[deviceFeature(c)] ?? 0), 0);
}

/**
 * Spec 3 §8 "Free plan allowance reached": on the free plan an organization holds at most
 * FREE_DEVICE_ALLOWANCE devices; adding `adding` more to `current` is refused past it.
 */
export function deviceAllowanceProblem(plan: PlanLimits | null, current: number, adding = 1): string | null {
  if (!isFreePlan(plan)) return null;
  return current + adding > FREE_DEVICE_ALLOWANCE ? BILLING_LIMIT_MESSAGES.freeAllowanceReached : null;
}

/** Spec 3 §4: the free plan is blocked with frozen free devices, or more devices than the allowance. */
export function freePlanBlocked(devices: { total: number; frozen?: number }): boolean {
  return devices.total > FREE_DEVICE_ALLOWANCE || (devices.frozen ?? 0) > 0;
}
