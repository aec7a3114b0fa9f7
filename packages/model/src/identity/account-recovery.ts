/**
 * Sign-up profile, e-mail verification and password reset (spec 1 §2, §4, §5, §8, §9;
 * issue 6 items 2–3): constants and pure rules shared by the server (which enforces them)
 * and the dashboard (which mirrors them).
 */

/** Spec 1 §3: the profile step's account types. */
export const PROFILE_ACCOUNT_TYPES = ['personal', 'professional'] as const;
export type ProfileAccountType = (typeof PROFILE_ACCOUNT_TYPES)[number];

/** Spec 1 §5: "a verification request is debounced 300 ms" (the dashboard's resend). */
export const VERIFICATION_REQUEST_DEBOUNCE_MS = 300;
/** A verification link stays valid this long (not in the spec: docs/decisions.md). */
export const EMAIL_VERIFICATION_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** The server sends at most one verification mail per user in this interval. */
export const VERIFICATION_EMAIL_INTERVAL_SECONDS = 60;
/** A password reset login code stays valid this long (spec §9 gives none: 1 hour). */
export const PASSWORD_RESET_CODE_TTL_SECONDS = 60 * 60;
/** At most one reset request per email address in this interval… */
export const PASSWORD_RESET_EMAIL_INTERVAL_SECONDS = 60;
/** …and at most this many from one IP address per window. */
export const PASSWORD_RESET_IP_MAX_REQUESTS = 10;
export const PASSWORD_RESET_IP_WINDOW_SECONDS = 60 * 60;

/** Server messages (spec 1 §8 describes them; the wording is ours, see docs/decisions.md). */
export const ACCOUNT_MESSAGES = {
  captchaRequired: 'A captcha response is required',
  captchaFailed: 'The captcha check failed, please try again',
  captchaUnavailable: 'The captcha service is unreachable, please try again later',
  verificationMissing: 'An email address and a verification token are required',
  verificationFailed: 'There was an issue verifying your email address',
  verificationRequired: 'Please verify your email address to continue',
  resetCodeRequired: 'A reset code is required',
  resetCodeInvalid: 'The reset code is invalid',
  resetCodeExpired: 'The reset code has expired',
  tooManyRequests: 'Too Many Requests. Try again later',
} as const;

export interface ProfileInput {
  first_name?: unknown;
  last_name?: unknown;
  company?: unknown;
  account_type?: unknown;
}

export type ProfileField = 'first_name' | 'last_name' | 'company' | 'account_type';

const PROFILE_FIELD_LABELS: Record<ProfileField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  account_type: 'Account type',
};
export const PROFILE_TEXT_MAX_LENGTH = 255;

/**
 * Spec 1 §5: first_name, last_name, company and account_type are required. Text fields are
 * trimmed, non-empty and at most 255 characters; account_type is personal or professional.
 * Returns the problems by field (empty when the profile is acceptable).
 */
export function profileProblems(input: ProfileInput): Partial<Record<ProfileField, string>> {
  const problems: Partial<Record<ProfileField, string>> = {};
  for (const field of ['first_name', 'last_name', 'company'] as const) {
    const v = input[field];
    const label = PROFILE_FIELD_LABELS[field];
    if (typeof v !== 'string' || v.trim() === '') problems[field] = `${label} is required`;
    else if (v.trim().length > PROFILE_TEXT_MAX_LENGTH) problems[field] = `${label} must be at most ${PROFILE_TEXT_MAX_LENGTH} characters`;
  }
  const type = input.account_type;
  if (type === undefined || type === null || type === '') problems.account_type = 'Account type is required';
  else if (!PROFILE_ACCOUNT_TYPES.includes(type as ProfileAccountType)) problems.account_type = 'Account type must be personal or professional';
  return problems;
}

/**
 * Spec 1 §4: must verify and not verified is `pending`; must_be_verified false and not
 * verified is `missing`; a verified address is `verified`.
 */
export type EmailVerificationState = 'verified' | 'pending' | 'missing';
export function emailVerificationState(user: { is_verified: boolean; must_be_verified: boolean }): EmailVerificationState {
  if (user.is_verified) return 'verified';
  return user.must_be_verified ? 'pending' : 'missing';
}

/** Spec 1 §4: the progress of the verification page. */
export type VerificationProgress = 'pending' | 'inprogress' | 'done' | 'failed';

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * Spec 1 §8: a rate-limited password reset shows the next valid time: 'try again shortly'
 * when it is unknown or (almost) now, else 'available again in …'.
 */
export function rateLimitText(nextValidTime: Date | string | null | undefined, now: Date = new Date()): string {
  const next = nextValidTime ? new Date(nextValidTime) : null;
  const seconds = next && !Number.isNaN(next.getTime()) ? Math.ceil((next.getTime() - now.getTime()) / 1000) : 0;
  if (seconds <= 1) return 'Too many requests, try again shortly';
  if (seconds < 60) return `Too many requests, available again in ${plural(seconds, 'second')}`;
  if (seconds < 3600) return `Too many requests, available again in ${plural(Math.ceil(seconds / 60), 'minute')}`;
  return `Too many requests, available again in ${plural(Math.ceil(seconds / 3600), 'hour')}`;
}
