/** Account deletion rules (spec 1 §4, §5, §8), shared by the server (decides) and the dashboard (mirrors). */

/** Spec 1 §8: the refusal when an organization to be deleted is on a custom billing plan. */
export const CUSTOM_PLAN_REFUSAL = 'Billing does not support canceling custom billing plans. Please contact sales.';

/** Spec 1 §9: after the account is deleted the dashboard waits this long, then goes to /login. */
export const ACCOUNT_DELETION_REDIRECT_MS = 2000;

/**
 * Plan code of an organization without billing. Billing is a later issue; until then every
 * organization is on the free plan, so the custom-plan refusal never triggers.
 */
export const FREE_PLAN_CODE = 'free';

/** Custom plans are negotiated by sales; their codes start with `custom` (e.g. `custom-enterprise`). */
export function isCustomPlanCode(code: string | null | undefined): boolean {
  return typeof code === 'string' && /^custom\b/i.test(code);
}

/**
 * Spec 1 §8: account-deletion error text gets a period and 'Please contact support.'
 * appended, unless it already says to contact support or sales.
 */
export function accountDeletionErrorText(text: string): string {
  const trimmed = text.trim();
  if (/contact (support|sales)/i.test(trimmed)) return trimmed;
  const withPeriod = /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
  return `${withPeriod} Please contact support.`;
}

/** An organization whose only administrator is the user (spec 1 §4 account deletion). */
export interface SingleAdminOrganization {
  id: number;
  name: string;
  handle: string;
  /** Members other than the user. */
  otherMembers: number;
}

/** The deletion wizard's preflight (spec 1 §7: singleAdminOrgs, billingPlanCodesByOrg, applicationCount, deviceCount). */
export interface AccountDeletionPreflight {
  singleAdminOrgs: SingleAdminOrganization[];
  billingPlanCodesByOrg: Record<string, string>;
  /** Fleets, apps and blocks of those organizations: they go with them. */
  applicationCount: number;
  deviceCount: number;
}
